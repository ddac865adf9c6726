import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { nanoid } from 'nanoid';
import { actorAddress, client, type ActorAddress } from '../../runtime/actor.js';
import type { Router } from '../../runtime/calls.js';
import { onAbort } from '../../runtime/abort.js';
import { cancelledError, ReikaError } from '../../runtime/errors.js';
import { endpointOf, findProfile, type Config } from '../config.js';
import { ContextManager, type Compaction, type TurnImage } from '../context/context-manager.js';
import type { Image } from '../images/image.js';
import { imageMentions, prepareImages } from '../images/prepare.js';
import { pasteProblem } from '../images/recognize.js';
import { repoMapBudget } from '../indexer/budget.js';
import { MODEL_IO, type EngineInfo, type ToolSchema } from '../model-io/protocol.js';
import { bootstrap, type Bootstrap } from '../prompt/bootstrap.js';
import type { AgentMode } from '../agent-mode.js';
import { buildSystemPrompt } from '../prompt/system-prompt.js';
import type { ToolRegistry } from '../tool-executor/registry.js';
import { spreadBriefs, subagentBrief } from '../subagent/brief.js';
import { SubagentWaves } from '../subagent/wave.js';
import type { ApprovalMode, ToolExecutorProtocol } from '../tool-executor/protocol.js';
import type { McpHub } from '../mcp/hub.js';
import { connect, type Connection } from './connect.js';
import type { AgentEvent, TurnResult, UsageTotals } from './events.js';
import { describe, runTurn } from './turn.js';

/**
 * One reika session, used by the terminal UI and the headless CLI alike: bootstrap once
 * (index, repo map, summary, AGENTS.md → one frozen system prompt), then turns, each with its own
 * abort scope. Bootstrap and model discovery start in the constructor and run while the actors
 * spawn; the first turn waits for them.
 */

/** What the session needs from the runtime (see cli/start-runtime.ts). */
export interface SessionRuntime {
  /** Routes requests; `abort(scope)` sends the one abort message for a turn. */
  supervisor: Router & { abort(scope: string, reason?: string): void };
  indexerReady: Promise<void>;
  /** Starts actors that are only needed once turns run (the tool executor). */
  prewarm?(): void;
  watchApprovals?(listener: (phase: 'ask' | 'answered') => void): () => void;
  /** The MCP servers, whose ready tools join the tools array when it is frozen (cli/start-runtime.ts). */
  mcp?(): Promise<McpTools>;
}

/** What the session needs of the MCP hub (`actors/mcp/hub.ts`). */
export type McpTools = Pick<McpHub, 'start' | 'reload' | 'settled' | 'readyTools'>;

export interface SessionOptions {
  runtime: SessionRuntime;
  config: Config;
  /** The project root: the folder reika runs in. */
  cwd: string;
  mode?: Exclude<AgentMode, 'subagent'>;
  /** Nobody answers approval prompts: the system prompt says so. */
  headless?: boolean;
}

/** Figures for the status line and `/tokens`. */
export interface SessionInfo {
  root: string;
  profile: string;
  model?: string;
  mode: AgentMode;
  approvals: ApprovalMode;
  window?: number;
  estimateTokens: number;
  threshold?: number;
  usage: UsageTotals;
  /** Cached / prompt tokens over the session (0 when nothing was reported). */
  cacheHitRate: number;
  /** Fixed charge of the images sent natively in the current turn (IMAGE_TOKENS each). */
  imageTokens: number;
  /** Prompt tokens of the last request, as the server counted them. */
  lastPromptTokens?: number;
  /**
   * How the model writes its tool calls, as last seen (`native`, or a text dialect's name, see
   * model-io `dialects/table.ts`); unknown until it made a call. What `/tokens` and `reika doctor` show.
   */
  dialect?: string;
  busy: boolean;
}

interface Frozen {
  boot: Bootstrap;
  system: string;
  tools: ToolSchema[];
  /** The same facts and the tools in `subagent` mode: every subagent of the session shares this prefix. */
  subagentSystem: string;
  subagentTools: ToolSchema[];
  /** Where each tool runs: the agent loop routes a call by it. */
  registry: ToolRegistry;
}

export class Session {
  private readonly listeners = new Set<(event: AgentEvent) => void>();
  private readonly config: Config;
  private readonly runtime: SessionRuntime;
  private readonly headless: boolean;
  private root: string;
  private mode: Exclude<AgentMode, 'subagent'>;
  private approvals: ApprovalMode;
  private profile;
  private connection: Promise<Connection>;
  private frozen: Promise<Frozen>;
  private frozenValue: Frozen | undefined;
  /** The tools' modules load while the indexer scans: the freeze is their first use. */
  private readonly registryModule = import('../tool-executor/registry.js');
  /** The session's tools, a fresh registry per bootstrap (MCP servers ready by then are in it). */
  private tools: Promise<ToolRegistry> = this.registryModule.then((loaded) => new loaded.ToolRegistry());
  private context: ContextManager | undefined;
  private current: { scope: string; controller: AbortController } | undefined;
  private readonly usage: UsageTotals = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reported: 0 };
  private lastPromptTokens: number | undefined;
  /** The connected model's tool-call dialect, as last seen; forgotten when the model changes. */
  private dialect: string | undefined;
  /** Connections whose unknown window was asked again after a first reply. */
  private readonly windowProbed = new WeakSet<Connection>();
  /** The window of the current connection, once settled. */
  private window: number | undefined;
  /** What the engine said of itself (detected beside the bootstrap scan, never before a request). */
  private engineValue: EngineInfo | undefined;
  private engineDetection: Promise<EngineInfo | undefined> = Promise.resolve(undefined);

  constructor(options: SessionOptions) {
    this.config = options.config;
    this.runtime = options.runtime;
    this.headless = options.headless ?? false;
    this.root = resolve(options.cwd);
    this.mode = options.mode ?? 'agent';
    this.approvals = options.config.approvals;
    this.profile = options.config.active;
    this.connection = this.connect();
    this.frozen = this.boot();
  }

  /** Settles when the bootstrap is done and the model is settled; rejects with a one-sentence error. */
  get ready(): Promise<void> {
    return Promise.all([this.frozen, this.connection]).then(() => undefined);
  }

  /** The engine record, once detection answered (undefined before, or when it could not run). */
  get engine(): EngineInfo | undefined {
    return this.engineValue;
  }

  /** Settles with the engine record when detection is done (`reika doctor` waits for it). */
  engineDetected(): Promise<EngineInfo | undefined> {
    return this.engineDetection;
  }

  /** The frozen bootstrap (index paths for completion, repo map…), once it is built. */
  get bootstrap(): Bootstrap | undefined {
    return this.frozenValue?.boot;
  }

  /** The names in the frozen tools array (empty before the first bootstrap ends). */
  toolNames(): string[] {
    return this.frozenValue?.tools.map((tool) => tool.function.name) ?? [];
  }

  get busy(): boolean {
    return this.current !== undefined;
  }

  subscribe(listener: (event: AgentEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs one turn. Never throws for model or tool failures: the result says how it ended.
   * `images` are pasted images; `@file.png` mentions in the prompt are recognised too.
   */
  async run(prompt: string, options: { images?: readonly Image[] } = {}): Promise<TurnResult> {
    if (this.current) throw new ReikaError('REIKA_ERR_BUSY', 'a turn is already running');
    const turn = nanoid(8);
    const scope = `turn-${turn}`;
    const controller = new AbortController();
    this.current = { scope, controller };
    const started = Date.now();
    try {
      let frozen: Frozen;
      let connection: Connection;
      try {
        [frozen, connection] = await untilAborted(Promise.all([this.frozen, this.connectionOrRetry()]), controller.signal);
      } catch (error) {
        return this.endEarly(turn, prompt, started, controller.signal.aborted ? undefined : describe(error));
      }
      this.runtime.prewarm?.();
      const context = this.contextFor(frozen, connection);
      let images: TurnImage[] = [];
      if (options.images?.length || imageMentions(prompt).length > 0) {
        try {
          const prepared = await prepareImages(prompt, options.images ?? [], { config: this.config, profile: this.profile, router: this.runtime.supervisor, scope, signal: controller.signal, root: this.root });
          prompt = prepared.prompt;
          images = prepared.images;
          for (const problem of prepared.problems) this.emit({ type: 'notice', turn, message: problem });
        } catch {
          return this.endEarly(turn, prompt, started);
        }
      }
      const result = await runTurn(prompt, {
        images,
        router: this.runtime.supervisor,
        turn,
        scope,
        signal: controller.signal,
        endpoint: connection.endpoint,
        tools: frozen.tools,
        route: (name) => routeOf(frozen.registry, name),
        toolContext: { root: this.root, approvals: this.approvals, mode: this.mode },
        context,
        maxRequests: this.config.maxTurns,
        wave: this.waves(frozen, connection),
        emit: (event) => {
          if (event.type === 'usage' && this.window === undefined) this.probeWindow(connection, context);
          this.emit(event);
        },
        watchApprovals: this.runtime.watchApprovals,
      });
      this.usage.promptTokens += result.usage.promptTokens;
      this.usage.completionTokens += result.usage.completionTokens;
      this.usage.cachedTokens += result.usage.cachedTokens;
      this.usage.reported += result.usage.reported;
      const last = result.requestUsage.filter((u) => u !== null).at(-1);
      if (last) this.lastPromptTokens = last.promptTokens;
      if (result.dialect) this.dialect = result.dialect;
      return result;
    } finally {
      this.current = undefined;
    }
  }

  /**
   * With the window unknown at connect, asks once more after the first reply: Ollama reports the
   * window only once the model is loaded, which the first request did. Found before the next
   * request (a few ms), it makes every later request append-only.
   */
  private probeWindow(connection: Connection, context: ContextManager): void {
    if (this.windowProbed.has(connection)) return;
    this.windowProbed.add(connection);
    client(this.runtime.supervisor, MODEL_IO)
      .request({ type: 'discover', endpoint: connection.endpoint })
      .then((reply) => {
        if (reply.contextWindow === undefined || this.window !== undefined) return;
        connection.window = reply.contextWindow;
        this.window = reply.contextWindow;
        context.setWindow(reply.contextWindow);
      })
      .catch(() => {});
  }

  /** A turn's subagent waves: the session's brief, spread over REIKA_SUBAGENT_PROFILES when set. */
  private waves(frozen: Frozen, connection: Connection): SubagentWaves {
    const input = { config: this.config, endpoint: connection.endpoint, window: connection.window, root: this.root, system: frozen.subagentSystem, tools: frozen.subagentTools, approvals: this.approvals };
    return new SubagentWaves({ router: this.runtime.supervisor, brief: subagentBrief(input), spread: spreadBriefs(input) });
  }

  /**
   * Aborts the running turn: one abort message down the tree for its scope (the only cancel its
   * actors get), and the turn's own signal, which stops the loop between steps.
   */
  abort(reason = 'aborted'): void {
    const current = this.current;
    if (!current) return;
    this.runtime.supervisor.abort(current.scope, reason);
    current.controller.abort(reason);
  }

  /** `/compact`: one compaction event by hand (undefined when there was nothing to shed). */
  compact(): Compaction | undefined {
    const event = this.context?.compact();
    if (event) this.emit({ type: 'compaction', ...event });
    return event;
  }

  /** `/new`: a fresh conversation with the same frozen system prompt. */
  newConversation(): void {
    this.assertIdle();
    this.context = undefined;
  }

  /**
   * `/cd PATH` (and `/cd .`): a new root, re-bootstrapped; the conversation starts over. The tools
   * are taken anew too, so MCP servers that became ready since join here; `added` and `removed`
   * say which tool names changed.
   */
  async cd(path: string): Promise<{ boot: Bootstrap } & ToolChange> {
    this.assertIdle();
    const root = resolve(this.root, path);
    let isDirectory = false;
    try {
      isDirectory = statSync(root).isDirectory();
    } catch {
      // reported below
    }
    if (!isDirectory) throw new ReikaError('REIKA_ERR_NO_SUCH_FOLDER', `${root} is not a folder`);
    const before = this.frozenValue?.tools;
    this.root = root;
    this.context = undefined;
    this.frozen = this.boot();
    const frozen = await this.frozen;
    return { boot: frozen.boot, ...(before ? toolChange(before, frozen.tools) : { added: [], removed: [] }) };
  }

  /** `/model NAME`: another profile (or model name on the current server); the prefix cache restarts. */
  async switchProfile(name: string): Promise<Connection> {
    this.assertIdle();
    const named = findProfile(this.config, name);
    if (!named) {
      // A model name is checked against the server's list at once, not at the next message.
      const models = await this.serverModels();
      if (models.length > 0 && !models.includes(name)) {
        const profiles = this.config.profiles.map((p) => p.name).join(', ');
        throw new ReikaError('REIKA_ERR_MODEL_NOT_FOUND', `the server at ${this.profile.baseUrl} has no model "${name}"; it offers: ${models.slice(0, 20).join(', ')}${models.length > 20 ? ', …' : ''} (profiles: ${profiles})`);
      }
    }
    const profile = named ?? { ...this.profile, model: name };
    this.profile = profile;
    this.dialect = undefined;
    this.connection = this.connect();
    const connection = await this.connection;
    this.context?.setWindow(connection.window);
    return connection;
  }

  /** The models the current profile's server lists (`/v1/models`); empty when it lists none. */
  async serverModels(): Promise<string[]> {
    const reply = await client(this.runtime.supervisor, MODEL_IO).request({ type: 'discover', endpoint: endpointOf(this.profile, this.config) });
    return reply.models;
  }

  /** Why a pasted image cannot be used with the current profile (e.g. no OCR on Linux), if it cannot. */
  imageProblem(): string | undefined {
    return pasteProblem({ config: this.config, profile: this.profile });
  }

  setApprovals(mode: ApprovalMode): void {
    this.approvals = mode;
  }

  /** `/mode agent|plan`: the system prompt and tools change, so the prefix cache restarts. */
  async setMode(mode: Exclude<AgentMode, 'subagent'>): Promise<void> {
    this.assertIdle();
    if (mode === this.mode) return;
    this.mode = mode;
    const previous = this.frozen;
    this.frozen = previous.then((frozen) => this.tools.then((tools) => this.freeze(frozen.boot, tools)));
    const frozen = await this.frozen;
    this.context?.rebase(frozen.system, frozen.tools);
  }

  info(): SessionInfo {
    const stats = this.context?.stats();
    return {
      root: this.root,
      profile: this.profile.name,
      model: this.profile.model,
      mode: this.mode,
      approvals: this.approvals,
      window: stats?.window ?? this.window ?? this.profile.contextWindow,
      estimateTokens: stats?.estimateTokens ?? 0,
      imageTokens: stats?.imageTokens ?? 0,
      threshold: stats?.threshold,
      usage: { ...this.usage },
      cacheHitRate: this.usage.promptTokens > 0 ? this.usage.cachedTokens / this.usage.promptTokens : 0,
      lastPromptTokens: this.lastPromptTokens,
      ...(this.dialect ? { dialect: this.dialect } : {}),
      busy: this.busy,
    };
  }

  private emit(event: AgentEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private assertIdle(): void {
    if (this.current) throw new ReikaError('REIKA_ERR_BUSY', 'wait for the turn to end (or abort it) first');
  }

  private connect(): Promise<Connection> {
    const profile = this.profile;
    const promise = connect(this.runtime.supervisor, profile, this.config);
    promise.then(
      (connection) => {
        // A later /model may have replaced the profile meanwhile: only settle the one asked for.
        if (this.profile !== profile) return;
        this.profile = { ...profile, model: connection.endpoint.model };
        this.window = connection.window;
      },
      () => {},
    );
    this.engineValue = undefined;
    const detection: Promise<EngineInfo | undefined> = promise.then(
      (connection) => this.detect(connection, () => this.engineDetection === detection),
      () => undefined,
    );
    this.engineDetection = detection;
    return promise;
  }

  /**
   * Asks model-io which engine serves the connection, once it is settled: beside the bootstrap
   * scan, so the first request never waits for it. The embedded engine's record came with the connection.
   */
  private async detect(connection: Connection, current: () => boolean): Promise<EngineInfo | undefined> {
    let engine: EngineInfo | undefined = connection.engine;
    if (!engine) {
      try {
        engine = await client(this.runtime.supervisor, MODEL_IO).request({ type: 'detect', endpoint: connection.endpoint });
      } catch {
        return undefined;
      }
    }
    // A later /model may have started another detection meanwhile: only the newest one counts.
    if (current()) this.engineValue = engine;
    connection.engine = engine;
    return engine;
  }

  /** A failed connection is tried again by the next turn (the server may have come up since). */
  private connectionOrRetry(): Promise<Connection> {
    this.connection = this.connection.catch(() => this.connect());
    return this.connection;
  }

  private boot(): Promise<Frozen> {
    const root = this.root;
    const pinned = this.config.repoMapBudget;
    const window = this.profile.contextWindow;
    // The budget needs the window; only wait for discovery when neither is configured.
    const budget = pinned !== undefined || window !== undefined ? repoMapBudget(window, pinned) : this.connection.then((c) => repoMapBudget(c.window), () => repoMapBudget(undefined));
    const promise = this.runtime.indexerReady
      .then(() => bootstrap(this.runtime.supervisor, { root, budgetTokens: budget }))
      .then((boot) => {
        this.runtime.prewarm?.();
        this.tools = this.registryFor(root);
        this.emit({ type: 'bootstrap', root: boot.root, files: boot.index.paths.length, repoMapFiles: boot.repoMap.files.length - boot.repoMap.omitted, capped: boot.index.capped.length > 0, ms: boot.ms, ...(boot.repoMapError ? { repoMapError: boot.repoMapError } : {}) });
        return this.tools.then((tools) => this.freeze(boot, tools));
      });
    // Even a failed bootstrap must not leave the executor unstarted (the runtime's `ready` waits for it).
    promise.catch(() => this.runtime.prewarm?.());
    return promise;
  }

  /**
   * The tools for a bootstrap of `root`: the built-ins, then the tools of the MCP servers that are
   * ready now (starting them if they are not started yet). None is waited for unless
   * REIKA_MCP_WAIT_MS says so: the rest join at `/mcp reload` or `/cd .`.
   */
  private async registryFor(root: string): Promise<ToolRegistry> {
    const { ToolRegistry } = await this.registryModule;
    const registry = new ToolRegistry();
    const mcp = await this.runtime.mcp?.();
    if (!mcp) return registry;
    await mcp.start(root, { userFolder: this.config.userFolder, trustProject: this.config.values.REIKA_MCP_TRUST_PROJECT === '1' });
    await mcp.settled(Number(this.config.values.REIKA_MCP_WAIT_MS ?? 0) || 0);
    for (const tool of mcp.readyTools()) registry.register(tool);
    return registry;
  }

  /**
   * `/mcp reload`: the MCP config is read again and the tools array is taken anew with the servers
   * ready now. The system prompt stays; the tools change, so the prefix cache restarts once.
   * Returns the tool names that joined and left.
   */
  async reloadTools(): Promise<ToolChange> {
    this.assertIdle();
    const before = await this.frozen;
    const mcp = await this.runtime.mcp?.();
    await mcp?.reload();
    this.tools = this.registryFor(this.root);
    this.frozen = this.tools.then((tools) => this.freeze(before.boot, tools));
    const frozen = await this.frozen;
    this.context?.rebase(frozen.system, frozen.tools);
    return toolChange(before.tools, frozen.tools);
  }

  private freeze(boot: Bootstrap, tools: ToolRegistry): Frozen {
    const facts = {
      cwd: boot.root,
      summary: boot.summary,
      agentsMd: boot.agentsMd,
      repoMap: boot.repoMap.text,
      indexedFiles: boot.index.paths.length,
      capped: boot.index.capped.length > 0,
      headless: this.headless,
    };
    const system = buildSystemPrompt(this.mode, facts);
    const frozen: Frozen = { boot, system, tools: tools.toolsArray(this.mode), subagentSystem: buildSystemPrompt('subagent', facts), subagentTools: tools.toolsArray('subagent'), registry: tools };
    this.frozenValue = frozen;
    return frozen;
  }

  private contextFor(frozen: Frozen, connection: Connection): ContextManager {
    if (!this.context) {
      this.context = new ContextManager({ system: frozen.system, tools: frozen.tools, window: connection.window, maxTokens: this.config.maxTokens });
    }
    return this.context;
  }

  private endEarly(turn: string, prompt: string, started: number, error?: { code: string; message: string }): TurnResult {
    const result: TurnResult = {
      status: error ? 'error' : 'aborted',
      answer: '',
      requests: 0,
      toolCalls: [],
      usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reported: 0 },
      requestUsage: [],
      compactions: 0,
      durationMs: Date.now() - started,
      ...(error ? { error } : {}),
    };
    this.emit({ type: 'turn-start', turn, prompt });
    this.emit({ type: 'turn-end', turn, result });
    return result;
  }
}

/** Tool names that joined and left the tools array (`/cd`, `/mcp reload`). */
export interface ToolChange {
  added: string[];
  removed: string[];
}

function toolChange(before: readonly ToolSchema[], after: readonly ToolSchema[]): ToolChange {
  const was = new Set(before.map((tool) => tool.function.name));
  const now = new Set(after.map((tool) => tool.function.name));
  return { added: [...now].filter((name) => !was.has(name)), removed: [...was].filter((name) => !now.has(name)) };
}

/** The actor a foreign tool runs in (an MCP server's), or undefined for the tool executor. */
function routeOf(registry: ToolRegistry, name: string): ActorAddress<ToolExecutorProtocol> | undefined {
  const runs = registry.get(name)?.runs;
  return typeof runs === 'object' ? actorAddress<ToolExecutorProtocol>(runs.actor) : undefined;
}

/** Resolves with `promise`, or rejects as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const remove = onAbort(signal, () => reject(cancelledError('aborted')));
    promise.then(resolve, reject).finally(remove);
  });
}
