import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { SettingsLayer } from '../config/settings-layer.js';

/**
 * The three settings files as the permission book reads them (SPEC §17): the user's
 * `settings.json` in the reika folder, and the project's `.reika/settings.json` and
 * `.reika/settings.local.json` at the top of the git repository holding `cwd` (else in `cwd`).
 * Only their `permissions` and `hooks` blocks are taken; a file that is not a JSON object is one
 * note and counts as absent. The project's files are `trusted` as the caller says; the user's
 * always are.
 */
export function readSettingsLayers(cwd: string, userFolder: string, trusted: boolean): { layers: SettingsLayer[]; notes: string[] } {
  const notes: string[] = [];
  const top = gitTop(cwd) ?? cwd;
  const files: [SettingsLayer['scope'], string][] = [
    ['user', join(userFolder, 'settings.json')],
    ['project', join(top, '.reika', 'settings.json')],
    ['local', join(top, '.reika', 'settings.local.json')],
  ];
  const layers = files.map(([scope, path]): SettingsLayer => {
    const json = readJson(path, notes);
    const block = (key: string) => {
      const value = json?.[key];
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? { [key]: value as Record<string, unknown> } : {};
    };
    return { scope, path, exists: json !== undefined, trusted: scope === 'user' || trusted, ...block('permissions'), ...block('hooks') };
  });
  return { layers, notes };
}

function readJson(path: string, notes: string[]): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const json = JSON.parse(text) as unknown;
    if (json !== null && typeof json === 'object' && !Array.isArray(json)) return json as Record<string, unknown>;
    notes.push(`${path} does not hold a JSON object; its permissions and hooks are ignored`);
  } catch (error) {
    notes.push(`${path} is not valid JSON (${(error as Error).message}); its permissions and hooks are ignored`);
  }
  return undefined;
}

/** The folder holding the repository's `.git` (a folder or a worktree's file), looked up from `cwd`. */
function gitTop(cwd: string): string | undefined {
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) return folder;
    if (dirname(folder) === folder) return undefined;
  }
}
