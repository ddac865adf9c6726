import { getPriority } from 'node:os';
import { client } from '../../runtime/actor.js';
import { ReikaError } from '../../runtime/errors.js';
import type { ActorExitEvent, Supervisor } from '../../runtime/supervisor.js';
import type { ToolDefinition } from '../tool-executor/tools/define-tool.js';
import { APPROVER, type ApprovalReply, type ApprovalRequest } from '../approver/protocol.js';
import { commandLine, loadMcpConfig, type McpServerConfig } from './config.js';
import { mcpToolDefinition } from './mcp-tool.js';
import { mcpAddress } from './protocol.js';
import { McpTrust } from './trust.js';

// The MCP servers of a session, in the main process: reads the config, decides trust, spawns one
// actor per server (`actor.ts`, a supervised child process) and follows each through its states.
// Nothing here waits for a server: the session takes the tools of the servers that are ready when
// it freezes its tools array, and later ones join at `/mcp reload` or `/cd .`.
//
// {@link McpHub.status} is the one place that says how each server is doing (`/mcp`, `reika doctor`).

export type McpState = 'starting' | 'ready' | 'failed' | 'declined';

export interface McpServerStatus {
  name: string;
  source: McpServerConfig['source'];
  type: McpServerConfig['type'];
  /** What runs (or the URL), as the user approved it. */
  command: string;
  state: McpState;
  /** Why it failed or was declined, or what it is doing (restarting), in one line. */
  reason?: string;
  /** The tools' names as models call them (once it was ready). */
  tools: string[];
  instructions?: string;
}

export interface McpHubOptions {
  supervisor: Supervisor;
  /** No one can approve a project's servers: they are declined unless `trustProject`. */
  headless: boolean;
  /** Where `${VAR}` in the config is read; default process.env. */
  env?: NodeJS.ProcessEnv;
  trust?: McpTrust;
  /**
   * Servers given by the one who started reika (an editor's, over ACP), trusted like the user's:
   * they join the configured ones at every start and reload, replacing one of the same name.
   */
  extra?: readonly McpServerConfig[];
}

/** Where a session's servers come from. */
export interface McpWhere {
  /** The config's `userFolder` (`~/.config/reika`), holding `mcp.json`. */
  userFolder: string;
  /** REIKA_MCP_TRUST_PROJECT=1: the project's servers start without asking. */
  trustProject: boolean;
}

/** What the hub tells its listeners (the terminal announces it, headless prints it). */
export type McpChange = { server: string; state: McpState; reason?: string; tools: number };

interface Entry {
  config: McpServerConfig;
  status: McpServerStatus;
  definitions: ToolDefinition[];
  /** The incarnation count, so a late answer of a stopped actor is ignored. */
  generation: number;
  settled: Promise<void>;
}

const actorModule = new URL('./actor.js', import.meta.url);
/**
 * The servers' actors (and the servers they start) run at a lower priority: loading the SDK and
 * booting a server costs seconds of CPU, which on a small machine came out of the session's own
 * start (bench/mcp.bench.ts: spawn → first request ×1.31 with two stdio servers at normal priority).
 */
const MCP_NICE_STEP = 10;

/** Ten steps nicer than reika itself (at most 19, the lowest priority). */
function mcpNice(): number | undefined {
  try {
    return Math.min(19, getPriority() + MCP_NICE_STEP);
  } catch {
    return undefined;
  }
}

export class McpHub {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(change: McpChange) => void>();
  private readonly env: NodeJS.ProcessEnv;
  private readonly trust: McpTrust;
  private root: string | undefined;
  private where: McpWhere = { userFolder: '', trustProject: false };
  private problems: string[] = [];
  private starting: Promise<void> = Promise.resolve();

  constructor(private readonly options: McpHubOptions) {
    this.env = options.env ?? process.env;
    this.trust = options.trust ?? new McpTrust();
    options.supervisor.on('exit', (event: ActorExitEvent) => this.onExit(event));
    options.supervisor.on('crash-loop', (name: string, message: string) => {
      const entry = [...this.entries.values()].find((e) => mcpAddress(e.config.name) === name);
      if (entry) this.set(entry, 'failed', message);
    });
  }

  /**
   * Starts the servers configured for `root` (idempotent for the same root and config): the
   * user's at once, the project's once trusted. Servers no longer configured are stopped.
   */
  start(root: string, where: McpWhere): Promise<void> {
    if (this.root === root && JSON.stringify(where) === JSON.stringify(this.where)) return this.starting;
    this.root = root;
    this.where = where;
    this.starting = this.starting.then(() => this.apply(root));
    return this.starting;
  }

  /** `/mcp reload`: reads the config again; new and failed servers start, changed ones restart. */
  reload(): Promise<void> {
    if (this.root === undefined) return Promise.resolve();
    const root = this.root;
    this.starting = this.starting.then(() => this.apply(root, true));
    return this.starting;
  }

  /** Lines for config files or entries that could not be used. */
  configProblems(): string[] {
    return [...this.problems];
  }

  status(): McpServerStatus[] {
    return [...this.entries.values()].map((entry) => ({ ...entry.status, tools: [...entry.status.tools] }));
  }

  /** The tools of the servers ready now, for a session freezing its tools array. */
  readyTools(): ToolDefinition[] {
    return [...this.entries.values()].filter((entry) => entry.status.state === 'ready').flatMap((entry) => entry.definitions);
  }

  /**
   * Waits until every server being started has settled (ready, failed or declined), or `ms` went
   * by, whichever is first. `REIKA_MCP_WAIT_MS` uses it; by default nothing waits.
   */
  async settled(ms: number): Promise<void> {
    await this.starting;
    if (ms <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([...this.entries.values()].map((entry) => entry.settled)), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  /**
   * `reika -p`: waits for each server being started up to its own startup timeout
   * (`startup_timeout_ms`, default 10 s), all at once; a server not ready by then is left to come
   * late (its tools are not in this run's tools array) and said as a change. Returns their names.
   */
  async startup(): Promise<string[]> {
    await this.starting;
    const late: string[] = [];
    await Promise.all(
      [...this.entries.values()].map(async (entry) => {
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([entry.settled.then(() => false, () => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), entry.config.startupTimeoutMs)))]);
        clearTimeout(timer);
        if (!timedOut || entry.status.state !== 'starting') return;
        late.push(entry.config.name);
        const seconds = entry.config.startupTimeoutMs / 1000;
        for (const listener of this.listeners) listener({ server: entry.config.name, state: 'starting', reason: `not ready within ${seconds} s: this run goes on without its tools (startup_timeout_ms raises the wait)`, tools: 0 });
      }),
    );
    return late.sort();
  }

  onChange(listener: (change: McpChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops what is gone or changed and starts the rest; resolves before any server is up (or approved). */
  private async apply(root: string, reload = false): Promise<void> {
    const config = loadMcpConfig(root, this.where.userFolder, this.env);
    this.problems = config.problems;
    const extra = this.options.extra ?? [];
    const servers = [...config.servers.filter((server) => !extra.some((given) => given.name === server.name)), ...extra];
    const wanted = new Map(servers.map((server) => [server.name, server]));
    for (const [name, entry] of [...this.entries]) {
      const next = wanted.get(name);
      const same = next !== undefined && JSON.stringify(next) === JSON.stringify(entry.config);
      if (same && !(reload && (entry.status.state === 'failed' || entry.status.state === 'declined'))) continue;
      this.entries.delete(name);
      entry.generation = -1;
      await this.options.supervisor.stop(mcpAddress(name));
    }
    for (const server of servers) {
      if (this.entries.has(server.name)) continue;
      const entry = this.add(server);
      if (server.source === 'user') void this.spawn(entry);
      // Asking may take the user a while: nothing waits for the answer but this server.
      else entry.settled = this.allowed(root, server).then((ok) => (ok && this.entries.get(server.name) === entry ? this.spawn(entry) : undefined));
    }
  }

  private add(config: McpServerConfig): Entry {
    const entry: Entry = {
      config,
      status: { name: config.name, source: config.source, type: config.type, command: commandLine(config), state: 'starting', tools: [] },
      definitions: [],
      generation: 0,
      settled: Promise.resolve(),
    };
    this.entries.set(config.name, entry);
    return entry;
  }

  /** A project's server runs only once the user approved it (remembered), never headless unless trusted. */
  private async allowed(root: string, server: McpServerConfig): Promise<boolean> {
    const entry = this.entries.get(server.name)!;
    if (this.trust.isTrusted(root, server)) return true;
    if (this.where.trustProject) return true;
    if (this.options.headless) {
      this.set(entry, 'declined', `the project's .mcp.json starts it and reika runs headless: approve it once in interactive reika, or set REIKA_MCP_TRUST_PROJECT=1`);
      return false;
    }
    const request: ApprovalRequest = { type: 'approve', tool: `MCP server ${server.name}`, reason: `this project's .mcp.json starts it (approved once, remembered for this project)`, command: commandLine(server), remembered: 'for this project' };
    let reply: ApprovalReply;
    try {
      reply = await client(this.options.supervisor, APPROVER).request(request);
    } catch (error) {
      this.set(entry, 'declined', `asking for approval failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    if (reply.decision === 'decline') {
      this.set(entry, 'declined', 'you declined it; /mcp reload asks again');
      return false;
    }
    this.trust.remember(root, server);
    return true;
  }

  private spawn(entry: Entry): Promise<void> {
    const generation = ++entry.generation;
    const name = mcpAddress(entry.config.name);
    const nice = mcpNice();
    const spawned = this.options.supervisor.spawn({ name, title: `the MCP server ${entry.config.name}`, kind: 'process', module: actorModule, options: { server: entry.config }, ...(nice !== undefined ? { nice } : {}) });
    entry.settled = spawned.then(
      () => this.greet(entry, generation),
      (error: unknown) => {
        // reika is leaving: a server still starting has not failed, and nobody is left to tell.
        if (entry.generation !== generation || isClosing(error)) return;
        // It never came up: stop the restarts, keep the one line.
        void this.options.supervisor.stop(name);
        this.set(entry, 'failed', failureLine(error));
      },
    );
    return entry.settled;
  }

  /** Asks a (re)started actor what its server offers; queued by the supervisor until it is up. */
  private async greet(entry: Entry, generation: number): Promise<void> {
    try {
      const hello = await client(this.options.supervisor, mcpAddress(entry.config.name)).request({ type: 'hello' });
      if (entry.generation !== generation) return;
      entry.definitions = hello.tools.map((tool) => mcpToolDefinition(tool, entry.config));
      entry.status.tools = hello.tools.map((tool) => tool.name);
      if (hello.instructions) entry.status.instructions = hello.instructions;
      this.set(entry, 'ready');
    } catch (error) {
      if (entry.generation === generation && entry.status.state !== 'failed' && !isClosing(error)) this.set(entry, 'failed', failureLine(error));
    }
  }

  private onExit(event: ActorExitEvent): void {
    const entry = [...this.entries.values()].find((e) => mcpAddress(e.config.name) === event.name);
    if (!entry || entry.status.state !== 'ready' || event.next !== 'restart') return;
    const detail = lastLine(event.info.detail) ?? (event.info.signal ? `was killed by ${event.info.signal}` : `exited with code ${event.info.code}`);
    this.set(entry, 'starting', `restarting: ${detail}`);
    // After the supervisor has marked it restarting (it does so right after this event): a request
    // sent now would go to the incarnation that just died.
    entry.settled = Promise.resolve().then(() => this.greet(entry, entry.generation));
  }

  private set(entry: Entry, state: McpState, reason?: string): void {
    entry.status.state = state;
    if (reason === undefined) delete entry.status.reason;
    else entry.status.reason = reason;
    const change: McpChange = { server: entry.config.name, state, tools: entry.status.tools.length, ...(reason ? { reason } : {}) };
    for (const listener of this.listeners) listener(change);
  }
}

function isClosing(error: unknown): boolean {
  return ReikaError.isInstance(error) && error.code === 'REIKA_ERR_CLOSED';
}

/** The actor's one line (its stderr's last), without the supervisor's "failed to start:" frame. */
function failureLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const detail = message.replace(/^the MCP server \S+ failed to start: /, '');
  return lastLine(detail) ?? detail;
}

function lastLine(text: string | undefined): string | undefined {
  return text?.trim().split('\n').filter((line) => line.trim() !== '').at(-1)?.trim();
}
