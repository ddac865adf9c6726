/**
 * Which files are repo-map candidates: source files of the languages the repo map reads
 * (SPEC §2), recognised by extension only, so the scan never opens a file to decide.
 */

/** Lower-case extensions, with the dot. */
export const SOURCE_EXTENSIONS: ReadonlySet<string> = new Set([
  // TypeScript / JavaScript
  '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs',
  // Python, Go, Rust, Java, C#, Kotlin, Swift
  '.py', '.pyi', '.go', '.rs', '.java', '.cs', '.kt', '.kts', '.swift',
  // C, C++, Objective-C
  '.c', '.h', '.cc', '.cpp', '.cxx', '.c++', '.hh', '.hpp', '.hxx', '.h++', '.m', '.mm',
  // Ruby, PHP, Lua, shell
  '.rb', '.php', '.lua', '.sh', '.bash', '.zsh',
]);

/** True for a file name the repo map would read; minified bundles are left out. */
export function isSourceFile(name: string): boolean {
  const dot = name.lastIndexOf('.');
  // No extension, a dot file, or an extension longer than any source one.
  if (dot <= 0 || name.length - dot > 6) return false;
  let extension = name.slice(dot);
  if (!SOURCE_EXTENSIONS.has(extension)) {
    extension = extension.toLowerCase();
    if (!SOURCE_EXTENSIONS.has(extension)) return false;
  }
  return !(dot > 4 && name.startsWith('.min', dot - 4));
}
