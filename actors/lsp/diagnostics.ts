import { readFile, stat } from 'node:fs/promises';
import { getPriority } from 'node:os';
import { relative } from 'node:path';
import { client, type ActorAddress } from '../../runtime/actor.js';
import type { Supervisor } from '../../runtime/supervisor.js';
import type { LspOptions } from './actor.js';
import { lspAddress, type LspDiagnostic, type LspLanguage, type LspProtocol } from './protocol.js';
import { findImporters } from './importers.js';
import { findServer, LANGUAGES, languageOf, type ServerCommand } from './servers.js';

/** At most this many errors are reported after one edit. */
export const MAX_REPORTED = 5;
/** Files larger than this are not given to a server. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Language servers run ten steps nicer than reika (like MCP servers): they must not take the terminal's CPU. */
const NICE_STEP = 10;

export interface DiagnosticsOptions {
  supervisor: Pick<Supervisor, 'spawn' | 'stop' | 'request' | 'on'>;
  /** How long `after` waits for the server (REIKA_DIAGNOSTICS_MS). */
  waitMs: number;
  env?: NodeJS.ProcessEnv;
}

interface Server {
  command: ServerCommand | undefined;
  address?: ActorAddress<LspProtocol>;
  /** Settles true once the actor is up, false when it could not start. */
  started?: Promise<boolean>;
  /** Why it is not available (one line), for `/doctor`. */
  problem?: string;
}

const actorModule = new URL('./actor.js', import.meta.url);

/**
 * Diagnostics after edits (SPEC §19), in the main process: for a file in a language reika has a
 * server for, `before` (an edit or write is about to run) starts that language's server actor if
 * it is not started yet and gives it the file as it is; `after` gives it the file as the edit left
 * it and says which errors the edit introduced, waiting at most the budget. A missing or failing
 * server is one line in `/doctor`, never an error in a turn: `after` then says nothing.
 */
export class Diagnostics {
  private readonly servers = new Map<string, Server>();
  /** The syncs `before` started, by path, which `after` lets finish first. */
  private readonly preparing = new Map<string, Promise<void>>();
  /** Servers started per language (each gets an address of its own). */
  private readonly counts = new Map<LspLanguage, number>();

  constructor(private readonly options: DiagnosticsOptions) {
    // A server that keeps crashing is not restarted again: /doctor says so, edits go on without it.
    options.supervisor.on('crash-loop', (name: string, message: string) => {
      for (const server of this.servers.values()) {
        if (server.command && server.address === name) server.problem = `${server.command.name} keeps crashing (${message.split('\n')[0]}); edits go on without diagnostics`;
      }
    });
  }

  /**
   * An edit or write of `path` is about to run: the file is read as it is now (awaited: the edit
   * must not land first), then its server starts (once) and gets it, and the files importing it.
   */
  async before(root: string, path: string): Promise<void> {
    const language = languageOf(path);
    if (!language) return;
    const server = this.server(root, language);
    if (!server.command || server.problem) return;
    const text = await readSmall(path);
    const prepared = this.started(root, server).then(async (up) => {
      if (!up) return;
      const lsp = client(this.options.supervisor, server.address!);
      if (text !== undefined) await lsp.request({ type: 'sync', path, text }).catch(() => undefined);
      // Their errors must be known before the change too; this edit does not change them.
      for (const file of await findImporters(root, path, language)) {
        const other = await readSmall(file);
        if (other !== undefined) await lsp.request({ type: 'sync', path: file, text: other, importerOf: path }).catch(() => undefined);
      }
    });
    this.preparing.set(path, prepared);
  }

  /**
   * The lines to add to the result of an edit or write of `path`: the errors it introduced, at
   * most {@link MAX_REPORTED}, or undefined when there are none or nothing can be said in time.
   * `created`: the file did not exist before (a write), so every error in it is new.
   */
  async after(root: string, path: string, created = false): Promise<string | undefined> {
    const language = languageOf(path);
    if (!language) return undefined;
    const server = this.servers.get(key(root, language));
    if (!server?.started) return undefined;
    const deadline = Date.now() + this.options.waitMs;
    const up = await Promise.race([server.started, new Promise<false>((resolve) => setTimeout(() => resolve(false), this.options.waitMs).unref())]);
    if (!up) return undefined;
    // What `before` sent (the file, its importers) goes first; it is waited for within the budget too.
    const prepared = this.preparing.get(path);
    this.preparing.delete(path);
    if (prepared) await Promise.race([prepared, new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref())]);
    const text = await readSmall(path);
    if (text === undefined) return undefined;
    try {
      const result = await client(this.options.supervisor, server.address!).request({ type: 'check', path, text, waitMs: Math.max(0, deadline - Date.now()), ...(created ? { fresh: true } : {}) });
      if (result.state !== 'checked' || result.introduced.length === 0) return undefined;
      return describe(root, result.introduced, server.command!.name);
    } catch {
      return undefined;
    }
  }

  /** One line per language for `/doctor`: the server found, where, and whether it runs. */
  status(root: string): string[] {
    return LANGUAGES.map((language) => {
      const server = this.servers.get(key(root, language)) ?? { command: findServer(language, root, this.options.env) };
      if (!server.command) return `${language}: no language server found (${serverHint(language)})`;
      const state = server.problem ? `: ${server.problem}` : server.started ? ' (running)' : ' (starts at the first edit)';
      return `${language}: ${server.command.name} from ${server.command.from}${state}`;
    });
  }

  private server(root: string, language: LspLanguage): Server {
    let server = this.servers.get(key(root, language));
    if (!server) {
      server = { command: findServer(language, root, this.options.env) };
      this.servers.set(key(root, language), server);
    }
    return server;
  }

  private started(root: string, server: Server): Promise<boolean> {
    const command = server.command!;
    if (server.started) return server.started;
    const n = (this.counts.get(command.language) ?? 0) + 1;
    this.counts.set(command.language, n);
    const address = (server.address = lspAddress(command.language, n));
    server.started = this.options.supervisor
      .spawn({
        name: address,
        title: `the language server ${command.name}`,
        kind: 'process',
        module: actorModule,
        options: { language: command.language, command: command.command, args: command.args, root, ...(command.initialization ? { initialization: command.initialization } : {}) } satisfies LspOptions,
        cwd: root,
        ...nice(),
      })
      .then(
        () => true,
        (error: unknown) => {
          server.problem = `${command.name} did not start: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
          void this.options.supervisor.stop(address);
          return false;
        },
      );
    return server.started;
  }
}

function key(root: string, language: LspLanguage): string {
  return `${root}\0${language}`;
}

function nice(): { nice?: number } {
  try {
    return { nice: Math.min(19, getPriority() + NICE_STEP) };
  } catch {
    return {};
  }
}

async function readSmall(path: string): Promise<string | undefined> {
  try {
    if ((await stat(path)).size > MAX_FILE_BYTES) return undefined;
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** `Errors this edit introduced (typescript-language-server):` then `src/a.ts:3:14 TS2322 Type …`. */
function describe(root: string, errors: readonly LspDiagnostic[], server: string): string {
  const shown = errors.slice(0, MAX_REPORTED).map((error) => {
    const path = relative(root, error.path) || error.path;
    return `${path.startsWith('..') ? error.path : path}:${error.line}:${error.column}${error.code ? ` ${error.code}` : ''} ${error.message}`;
  });
  const more = errors.length > MAX_REPORTED ? [`… and ${errors.length - MAX_REPORTED} more`] : [];
  return [`Errors this change introduced (${server}):`, ...shown, ...more].join('\n');
}

function serverHint(language: LspLanguage): string {
  switch (language) {
    case 'typescript':
      return 'the project has no typescript package: npm install -D typescript';
    case 'python':
      return 'install pyright in the project or on PATH';
    case 'go':
      return 'gopls on PATH';
    case 'rust':
      return 'rust-analyzer on PATH';
  }
}
