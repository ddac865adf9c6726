import type { ExecutionContext } from 'ava';
import { startScriptedServer, type Script, type ScriptedServer, type ServerOptions } from '../../helpers/scripted-server.js';
import { gitRepo, tempDir } from '../../helpers/temp.js';
import { Tmux } from '../../helpers/tmux.js';
import { reikaBin } from '../../helpers/binary.js';

/**
 * The built `reika` binary in a real terminal (tmux) against the scripted model server, in a real
 * temporary git repository, at one of the sizes and colour settings the TUI tests cover.
 */

export const mainJs = reikaBin;

export interface Terminal {
  width: number;
  height: number;
  noColor: boolean;
}

/** Every TUI behaviour is checked at 80×24 and 120×35, with and without NO_COLOR. */
export const TERMINALS: readonly Terminal[] = [
  { width: 80, height: 24, noColor: false },
  { width: 80, height: 24, noColor: true },
  { width: 120, height: 35, noColor: false },
  { width: 120, height: 35, noColor: true },
];

export function describeTerminal(terminal: Terminal): string {
  return `${terminal.width}×${terminal.height}${terminal.noColor ? ', NO_COLOR' : ''}`;
}

export interface Started {
  term: Tmux;
  server: ScriptedServer;
  root: string;
}

export interface StartOptions {
  tree?: Record<string, string>;
  env?: Record<string, string>;
  server?: ServerOptions;
  root?: string;
  args?: string[];
  /** Wait for this before returning (default the prompt's `› `). */
  ready?: string;
}

export async function startReika(t: ExecutionContext, terminal: Terminal, script: Script, options: StartOptions = {}): Promise<Started> {
  const server = await startScriptedServer(script, options.server ?? { models: ['scripted-model'] });
  t.teardown(() => server.close());
  const root = options.root ?? gitRepo(options.tree ?? { 'src/app.ts': 'export function main() {}\n', 'README.md': '# demo\n' });
  const term = await Tmux.start({
    command: [process.execPath, mainJs, ...(options.args ?? [])],
    cwd: root,
    width: terminal.width,
    height: terminal.height,
    env: {
      PATH: process.env.PATH,
      HOME: tempDir('reika-home-'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      REIKA_BASE_URL: server.url,
      REIKA_MODEL: 'scripted-model',
      REIKA_CONTEXT_WINDOW: '32000',
      // No language servers unless a test asks for them (see helpers/temp.ts).
      REIKA_DIAGNOSTICS: 'off',
      ...(terminal.noColor ? { NO_COLOR: '1' } : {}),
      ...options.env,
    },
  });
  t.teardown(() => term.kill());
  await term.waitFor(options.ready ?? '› ');
  return { term, server, root };
}

/** Polls `probe` until it returns a value (not undefined or false). */
export async function until<T>(probe: () => T | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The tool message of chat request `n`. */
export function toolMessage(server: ScriptedServer, n: number): string {
  return (server.chatRequests()[n]!.json.messages as { role: string; content: string }[]).find((m) => m.role === 'tool')!.content;
}
