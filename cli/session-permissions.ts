import { PermissionBook } from '../actors/session/permission-book.js';
import type { Config } from '../actors/config/load-config.js';

/**
 * The permission rules and hooks of a session (SPEC §17), from the settings files the
 * configuration read (`Config.settingsLayers`: the user's, the project's and the local one, the
 * project's loosening parts in force only once it is trusted). `notes`: one line each for what was
 * read and not used.
 */
export function sessionPermissions(config: Config): { book: PermissionBook; notes: string[] } {
  const book = new PermissionBook(config.settingsLayers);
  return { book, notes: [...book.notes] };
}
