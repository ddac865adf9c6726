import { LANGUAGES } from './symbols/languages.js';

// Which files are repo-map candidates: source files of the languages the repo map reads
// (SPEC §2), recognised by extension only, so the scan never opens a file to decide.

/** Lower-case extensions, with the dot: exactly those of the repo map's language table. */
export const SOURCE_EXTENSIONS: ReadonlySet<string> = new Set(LANGUAGES.flatMap((language) => language.extensions));
const LONGEST = Math.max(...[...SOURCE_EXTENSIONS].map((extension) => extension.length));

/** True for a file name the repo map would read; minified bundles are left out. */
export function isSourceFile(name: string): boolean {
  const dot = name.lastIndexOf('.');
  // No extension, a dot file, or an extension longer than any source one.
  if (dot <= 0 || name.length - dot > LONGEST) return false;
  let extension = name.slice(dot);
  if (!SOURCE_EXTENSIONS.has(extension)) {
    extension = extension.toLowerCase();
    if (!SOURCE_EXTENSIONS.has(extension)) return false;
  }
  return !(dot > 4 && name.startsWith('.min', dot - 4));
}
