import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { findProgram, isExecutable } from '../find-program.js';
import type { LspLanguage } from './protocol.js';

// Which language server serves a file, and where it is: the project's own install first
// (`node_modules/.bin`), then PATH, then the one installed beside reika. typescript-language-server
// is one of reika's dependencies, so TypeScript and JavaScript projects get diagnostics out of the
// box; it checks with the project's own `typescript` (it looks in the workspace and the folders
// above it, then beside itself), and reika ships no TypeScript of its own (23 MB, against a 60 MB
// install), so a project without one has no TypeScript server from reika. pyright (38 MB) is a
// development dependency only: found in the project or on PATH, or in a checkout of reika.

export interface ServerCommand {
  language: LspLanguage;
  /** What `/doctor` calls it. */
  name: string;
  command: string;
  args: string[];
  /** Where it was found: `project`, `PATH` or `reika`. */
  from: 'project' | 'PATH' | 'reika';
  /** The server's `initializationOptions`. */
  initialization?: Record<string, unknown>;
}

const EXTENSIONS: Record<string, LspLanguage> = {
  '.ts': 'typescript', '.tsx': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.js': 'typescript', '.jsx': 'typescript', '.mjs': 'typescript', '.cjs': 'typescript',
  '.py': 'python', '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
};

export const LANGUAGES: readonly LspLanguage[] = ['typescript', 'python', 'go', 'rust'];

/** The language of a file reika has a server for, by its extension. */
export function languageOf(path: string): LspLanguage | undefined {
  return EXTENSIONS[extname(path).toLowerCase()];
}

/**
 * typescript-language-server with one tsserver, not two: by default it starts a second,
 * syntax-only tsserver beside the one that checks types (for quick answers in an editor), and
 * tsserver's typings installer, which fetches `@types` packages from npm for what a project
 * imports into ~/.cache/typescript. Reika asks only for a file's errors, which the checking server
 * answers alone; the others took 40% of the start's CPU from the terminal (a cold start in
 * bench/lsp-echo.bench.ts), and the installer's network and files are nobody's request.
 */
const TYPESCRIPT_INITIALIZATION = { disableAutomaticTypingAcquisition: true, tsserver: { useSyntaxServer: 'never' } };

/** What each language's server is called, and how reika's own copy is found. */
const SERVERS: Record<LspLanguage, { name: string; bin: string; args: string[]; bundled?: { pkg: string; file: string }; initialization?: Record<string, unknown> }> = {
  typescript: { name: 'typescript-language-server', bin: 'typescript-language-server', args: ['--stdio'], bundled: { pkg: 'typescript-language-server', file: 'lib/cli.mjs' }, initialization: TYPESCRIPT_INITIALIZATION },
  python: { name: 'pyright', bin: 'pyright-langserver', args: ['--stdio'], bundled: { pkg: 'pyright', file: 'langserver.index.js' } },
  go: { name: 'gopls', bin: 'gopls', args: [] },
  rust: { name: 'rust-analyzer', bin: 'rust-analyzer', args: [] },
};

/** Where one of reika's own packages is (its package.json), or undefined when it is not installed. */
export type OwnPackage = (name: string) => string | undefined;

export const ownPackage: OwnPackage = (name) => {
  try {
    return createRequire(import.meta.url).resolve(`${name}/package.json`);
  } catch {
    return undefined;
  }
};

/** The server for `language` in the project at `root`, or undefined when none is at hand. */
export function findServer(language: LspLanguage, root: string, env: NodeJS.ProcessEnv = process.env, own: OwnPackage = ownPackage): ServerCommand | undefined {
  const server = SERVERS[language];
  const found = (command: string, args: string[], from: ServerCommand['from']): ServerCommand => ({ language, name: server.name, command, args, from, ...(server.initialization ? { initialization: server.initialization } : {}) });
  const local = join(root, 'node_modules', '.bin', server.bin);
  if (isExecutable(local)) return found(local, server.args, 'project');
  const onPath = findProgram(server.bin, { path: env.PATH ?? '' });
  if (onPath) return found(onPath, server.args, 'PATH');
  const packageJson = server.bundled ? own(server.bundled.pkg) : undefined;
  if (!packageJson) return undefined;
  if (language === 'typescript' && !projectTypescript(root) && !own('typescript')) return undefined;
  const file = join(dirname(packageJson), server.bundled!.file);
  return existsSync(file) ? found(process.execPath, [file, ...server.args], 'reika') : undefined;
}

/** Whether `root` or a folder above it has the `typescript` package (where typescript-language-server looks). */
function projectTypescript(root: string): boolean {
  for (let folder = root; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'node_modules', 'typescript', 'lib', 'tsserver.js'))) return true;
    if (dirname(folder) === folder) return false;
  }
}
