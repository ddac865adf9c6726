import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, from the compiled test tree (dist/test/helpers/). */
export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** The repository-relative TypeScript sources under `dir` (`.ts`, `.cts`; no `.d.ts`), read from the source tree. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(REPO, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.c?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}
