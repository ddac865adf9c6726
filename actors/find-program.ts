import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

// Programs on PATH, for the tool executor's sandbox (bubblewrap), its search engines (ripgrep,
// git) and the language servers: one walk of the folders, as a shell does it.

/** True when `file` is there and executable by this process. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first executable file named `name` in the folders of `path` (PATH's form; empty entries
 * skipped), then in `extra` (well-known folders a stripped PATH may lack); undefined when none.
 */
export function findProgram(name: string, { path = process.env.PATH ?? '', extra = [] }: { path?: string; extra?: readonly string[] } = {}): string | undefined {
  for (const folder of [...path.split(delimiter), ...extra]) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}
