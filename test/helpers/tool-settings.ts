import { loadConfig } from '../../actors/config/load-config.js';
import type { ToolSettings } from '../../actors/tool-executor/protocol.js';

/**
 * The tools' settings a session in `root` would send with each call: this process's environment,
 * then the folder's and the user's `.env` (as `reika` reads them at start).
 */
export function toolSettings(root: string): ToolSettings {
  return loadConfig({ cwd: root }).tools;
}
