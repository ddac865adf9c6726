import type { Config } from '../config/load-config.js';
import type { AgentMode } from '../agent-mode.js';
import type { ToolSchema } from '../model-io/protocol.js';
import { bootstrap, type Bootstrap } from '../prompt/bootstrap.js';
import { buildSystemPrompt } from '../prompt/system-prompt.js';
import { collectSkills } from '../prompt/skills.js';
import type { ToolRegistry } from '../tool-executor/registry.js';
import type { FrozenRecord } from '../transcript/transcript-event.js';
import type { SessionRuntime } from './session-runtime.js';

/** The session's modes (a subagent's is its own). */
export type SessionMode = Exclude<AgentMode, 'subagent'>;

/** What a transcript keeps of the frozen bootstrap: the exact bytes every request starts with. */
export interface FrozenBytes {
  mode: SessionMode;
  system: string;
  tools: ToolSchema[];
  /** The same facts and the tools in `subagent` mode: every subagent of the session shares this prefix. */
  subagentSystem: string;
  subagentTools: ToolSchema[];
}

/** The frozen bootstrap: its bytes, the bootstrap they were built from, and where each tool runs. */
export interface Frozen extends FrozenBytes {
  boot: Bootstrap;
  /** Where each tool runs: the agent loop routes a call by it. */
  registry: ToolRegistry;
}

export interface FrozenPromptOptions {
  runtime: Pick<SessionRuntime, 'supervisor' | 'indexerReady' | 'mcp'>;
  config: Config;
  mode: SessionMode;
  /** Nobody answers approval prompts: the system prompt says so. */
  headless: boolean;
  /** `reika -p`: the first bootstrap waits for the MCP servers up to their startup timeouts (nobody can /mcp reload later). */
  waitForMcp?: boolean;
  /** A bootstrap finished (before it is frozen). */
  onBootstrap(boot: Bootstrap): void;
  /** A stored session's freeze to take as recorded instead of bootstrapping (see {@link FrozenPrompt.thaw}). */
  resume?: FrozenRecord;
}

/**
 * The one owner of the system prompt and the tools array: built once per bootstrap (index, repo
 * map, summary, AGENTS.md, the tools of the MCP servers ready by then), byte-identical for every
 * request until `/mode`, `/mcp reload` or `/cd` freezes it anew. Others read {@link current}
 * (undefined until the first freeze) or wait for {@link ready}.
 */
export class FrozenPrompt {
  private pending: Promise<Frozen>;
  private value: Frozen | undefined;
  private modeValue: SessionMode;
  /** The tools' modules load while the indexer scans: the freeze is their first use. */
  private readonly registryModule = import('../tool-executor/registry.js');
  /** The session's tools, a fresh registry per bootstrap (MCP servers ready by then are in it). */
  private tools: Promise<ToolRegistry> | undefined;
  /** Freezes a request has used (see withLateTools). */
  private readonly sent = new WeakSet<Frozen>();

  constructor(
    private readonly options: FrozenPromptOptions,
    root: string,
    budgetTokens: number | Promise<number>,
  ) {
    this.modeValue = options.mode;
    this.pending = this.track(options.resume ? this.thawNow(root, options.resume) : this.bootNow(root, budgetTokens));
  }

  /**
   * A stored session's freeze, exactly as recorded — no scan, no repo map (`/cd .` does that on
   * purpose) — with only where each tool runs taken anew (the MCP servers ready now). A mode other
   * than the recorded one is frozen anew from the recorded facts.
   */
  thaw(root: string, record: FrozenRecord, mode: SessionMode = record.mode): Promise<Frozen> {
    this.modeValue = mode;
    return this.track(this.thawNow(root, record));
  }

  /** What a transcript keeps of a freeze (see {@link thaw}). */
  record(frozen: Frozen, root: string): FrozenRecord {
    const { boot } = frozen;
    return {
      type: 'frozen',
      mode: frozen.mode,
      root,
      paths: boot.index.paths,
      capped: boot.index.capped,
      repoMap: boot.repoMap.text,
      repoMapFiles: boot.repoMap.files.length - boot.repoMap.omitted,
      summary: boot.summary,
      agentsMd: [...boot.agentsMd],
      headless: this.options.headless,
      system: frozen.system,
      tools: frozen.tools,
      subagentSystem: frozen.subagentSystem,
      subagentTools: frozen.subagentTools,
    };
  }

  get ready(): Promise<Frozen> {
    return this.pending;
  }

  get current(): Frozen | undefined {
    return this.value;
  }

  get mode(): SessionMode {
    return this.modeValue;
  }

  /** The names in the frozen tools array (empty before the first bootstrap ends). */
  toolNames(): string[] {
    return this.value?.tools.map((tool) => tool.function.name) ?? [];
  }

  /** `/cd`: a new bootstrap of `root`, frozen when it is done. */
  boot(root: string, budgetTokens: number | Promise<number>): Promise<Frozen> {
    return this.track(this.bootNow(root, budgetTokens));
  }

  /** `/mode`: the same bootstrap and tools, frozen for another mode. */
  setMode(mode: SessionMode): Promise<Frozen> {
    this.modeValue = mode;
    return this.track(this.pending.then((frozen) => this.freeze(frozen.boot, frozen.registry)));
  }

  /** `/mcp reload`: the same bootstrap with the tools taken anew; resolves with the freezes before and after. */
  async reloadTools(root: string): Promise<{ before: Frozen; after: Frozen }> {
    const before = await this.pending;
    const mcp = await this.options.runtime.mcp?.();
    await mcp?.reload();
    this.tools = this.registryFor(root);
    const tools = this.tools;
    const after = await this.track(tools.then((registry) => this.freeze(before.boot, registry)));
    return { before, after };
  }

  /**
   * The tools array is fixed by the first request made with it, not before: MCP servers that
   * became ready after the bootstrap but before that request (the user was still typing) join
   * now, at no cost to the prefix cache. Once a request went out with `frozen` ({@link markSent}),
   * it stays. Returns `frozen` itself when nothing joined.
   */
  async withLateTools(frozen: Frozen): Promise<Frozen> {
    if (this.sent.has(frozen) || frozen !== this.value) return frozen;
    const mcp = await this.options.runtime.mcp?.();
    const ready = mcp?.readyTools() ?? [];
    if (ready.every((tool) => frozen.registry.get(tool.name))) return frozen;
    const { ToolRegistry, sessionTools } = await this.registryModule;
    const registry = new ToolRegistry(sessionTools({ searchUrl: this.options.config.tools.searchUrl }));
    for (const tool of ready) registry.register(tool);
    this.tools = Promise.resolve(registry);
    return this.track(Promise.resolve(this.freeze(frozen.boot, registry)));
  }

  /** A request is going out with `frozen`: its tools array is fixed from now on. */
  markSent(frozen: Frozen): void {
    this.sent.add(frozen);
  }

  /** True once a request went out with the current freeze. */
  get toolsFixed(): boolean {
    return this.value !== undefined && this.sent.has(this.value);
  }

  private thawNow(root: string, record: FrozenRecord): Promise<Frozen> {
    // The bootstrap as the prompt was made of it; the repo map's per-file list is not kept.
    const boot: Bootstrap = Object.freeze({
      root: record.root,
      index: { root: record.root, paths: record.paths, capped: record.capped, stats: { directories: 0, files: record.paths.length, ignored: 0, skipped: 0, ms: 0 } },
      repoMap: { text: record.repoMap, files: [], omitted: 0, budgetTokens: 0 },
      summary: record.summary,
      agentsMd: record.agentsMd,
      // Not in the record: read again, for a freeze in another mode (the record's own bytes are sent as they are).
      skills: collectSkills(record.root, this.options.config.userFolder),
      ms: 0,
    });
    this.tools = this.registryFor(root);
    const mode = this.modeValue;
    return this.tools.then((registry) => {
      if (mode !== record.mode) return this.freeze(boot, registry);
      const thawed: Frozen = { boot, mode, system: record.system, tools: record.tools, subagentSystem: record.subagentSystem, subagentTools: record.subagentTools, registry };
      // Its bytes were sent before: no late MCP tool may change them.
      this.sent.add(thawed);
      return thawed;
    });
  }

  private bootNow(root: string, budgetTokens: number | Promise<number>): Promise<Frozen> {
    const { runtime } = this.options;
    const promise = runtime.indexerReady
      .then(() => bootstrap(runtime.supervisor, { root, budgetTokens, userFolder: this.options.config.userFolder }))
      .then((boot) => {
        this.tools = this.registryFor(root);
        this.options.onBootstrap(boot);
        return this.tools.then((tools) => this.freeze(boot, tools));
      });
    return promise;
  }

  /**
   * The tools for a bootstrap of `root`: the built-ins, then the tools of the MCP servers that are
   * ready now (starting them if they are not started yet). None is waited for unless
   * REIKA_MCP_WAIT_MS says so: the rest join at `/mcp reload` or `/cd .`.
   */
  private async registryFor(root: string): Promise<ToolRegistry> {
    const { ToolRegistry, sessionTools } = await this.registryModule;
    const registry = new ToolRegistry(sessionTools({ searchUrl: this.options.config.tools.searchUrl }));
    const mcp = await this.options.runtime.mcp?.();
    if (!mcp) return registry;
    const { config } = this.options;
    await mcp.start(root, { userFolder: config.userFolder, trustProject: config.mcp.trustProject });
    // `reika -p` waits for the servers up to each one's startup timeout (nobody can /mcp reload
    // later); otherwise only REIKA_MCP_WAIT_MS waits: late servers join at /mcp reload or /cd.
    if (this.options.waitForMcp && config.mcp.waitMs === 0) await mcp.startup();
    else await mcp.settled(config.mcp.waitMs);
    for (const tool of mcp.readyTools()) registry.register(tool);
    return registry;
  }

  private freeze(boot: Bootstrap, registry: ToolRegistry): Frozen {
    const facts = {
      cwd: boot.root,
      summary: boot.summary,
      agentsMd: boot.agentsMd,
      skills: boot.skills.skills,
      repoMap: boot.repoMap.text,
      indexedFiles: boot.index.paths.length,
      capped: boot.index.capped.length > 0,
      headless: this.options.headless,
    };
    const mode = this.modeValue;
    return { boot, mode, system: buildSystemPrompt(mode, facts), tools: registry.toolsArray(mode), subagentSystem: buildSystemPrompt('subagent', facts), subagentTools: registry.toolsArray('subagent'), registry };
  }

  /** Makes `promise` the current freeze; its value becomes {@link current} unless a newer one replaced it meanwhile. */
  private track(promise: Promise<Frozen>): Promise<Frozen> {
    this.pending = promise;
    promise.then(
      (frozen) => {
        if (this.pending === promise) this.value = frozen;
      },
      () => {},
    );
    return promise;
  }
}

/** Tool names that joined and left the tools array (`/cd`, `/mcp reload`). */
export interface ToolChange {
  added: string[];
  removed: string[];
}

/** Which names joined and left between two tools arrays. */
export function toolChange(before: readonly ToolSchema[], after: readonly ToolSchema[]): ToolChange {
  const was = new Set(before.map((tool) => tool.function.name));
  const now = new Set(after.map((tool) => tool.function.name));
  return { added: [...now].filter((name) => !was.has(name)), removed: [...was].filter((name) => !now.has(name)) };
}
