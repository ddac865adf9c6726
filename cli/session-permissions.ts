import { PermissionBook } from '../actors/agent/permission-book.js';
import { readSettingsLayers } from '../actors/agent/read-settings-layers.js';
import type { Config } from '../actors/config/load-config.js';

/**
 * The permission rules and hooks of a session started in `cwd` (SPEC §17): the user's and the
 * project's settings files, the project's loosening parts (allow rules, hooks) in force only once
 * it is trusted (REIKA_MCP_TRUST_PROJECT=1 for now, the trust its MCP servers get). `notes`: one
 * line each for what was read and not used.
 */
export function sessionPermissions(config: Config, cwd: string): { book: PermissionBook; notes: string[] } {
  const { layers, notes } = readSettingsLayers(cwd, config.userFolder, config.mcp.trustProject);
  const book = new PermissionBook(layers);
  return { book, notes: [...notes, ...book.notes] };
}
