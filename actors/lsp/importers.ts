import { execFile } from 'node:child_process';
import { basename, extname, join } from 'node:path';
import type { LspLanguage } from './protocol.js';

/** At most this many importers are opened in the server beside the edited file. */
export const MAX_IMPORTERS = 10;
const SEARCH_MS = 1_000;

/** The ripgrep search for files importing a module of this name, per language. */
const IMPORTS: Partial<Record<LspLanguage, (module: string) => { pattern: string; globs: string[] }>> = {
  typescript: (module) => ({ pattern: `(from|import|require\\()\\s*\\(?\\s*['"][^'"]*\\b${module}(\\.[cm]?[jt]sx?)?['"]`, globs: ['*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'] }),
  python: (module) => ({ pattern: `^\\s*(from\\s+[\\w.]*\\b${module}\\s+import|import\\s+[\\w.]*\\b${module}\\b)`, globs: ['*.{py,pyi}'] }),
};

/**
 * The project's files that import `path`, best effort and quick: ripgrep (when it is on PATH)
 * looks for an import of the module's name, with .gitignore honoured. Opened in the server before
 * an edit, their errors are known, so what the edit breaks in them is reported too. Without
 * ripgrep, or past a second, none: only the edited file is checked.
 */
export function findImporters(root: string, path: string, language: LspLanguage, signal?: AbortSignal): Promise<string[]> {
  const name = basename(path, extname(path));
  if (!/^[\w.-]+$/.test(name)) return Promise.resolve([]);
  const search = IMPORTS[language]?.(name.replace(/\./g, '\\.'));
  if (!search) return Promise.resolve([]);
  const { pattern, globs } = search;
  return new Promise((resolve) => {
    execFile(
      'rg',
      ['--files-with-matches', '--max-count', '1', ...globs.flatMap((glob) => ['-g', glob]), '-e', pattern, '.'],
      { cwd: root, timeout: SEARCH_MS, maxBuffer: 1024 * 1024, ...(signal ? { signal } : {}) },
      (_error, stdout) => {
        const files = String(stdout ?? '')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => join(root, line))
          .filter((file) => file !== path);
        resolve(files.slice(0, MAX_IMPORTERS));
      },
    );
  });
}
