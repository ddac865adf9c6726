import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { nanoid } from 'nanoid';
import { actorAddress, type ActorAddress } from '../../runtime/actor.js';
import { untilAborted } from '../../runtime/abort.js';
import { cancelledError, ReikaError } from '../../runtime/errors.js';
import type { Config } from '../config/load-config.js';
import type { Compaction } from '../context/compactor.js';
import type { TurnImage } from '../images/image.js';
import type { Image } from '../images/image.js';
import { imageMentions, prepareImages } from '../images/prepare.js';
import { pasteProblem } from '../images/recognize.js';
import type { EngineInfo } from '../model-io/protocol.js';
import type { Bootstrap } from '../prompt/bootstrap.js';
import type { ToolRegistry } from '../tool-executor/registry.js';
import { spreadBriefs, subagentBrief } from '../subagent/brief.js';
import { SubagentWaves } from '../subagent/wave.js';
import type { ApprovalMode, ToolContext, ToolExecutorProtocol, ToolSettings } from '../tool-executor/protocol.js';
import type { ResumedSession } from '../transcript/resumed-session.js';
import type { SessionRecorder } from '../transcript/session-recorder.js';
import type { SessionSettings } from '../transcript/transcript-event.js';
import type { Connection } from './connect.js';
import type { AgentEvent, TurnResult } from '../agent/events.js';
import { FrozenPrompt, toolChange, type Frozen, type SessionMode, type ToolChange } from './frozen-prompt.js';
import { ModelLink } from './model-link.js';
import { describe, endedEarly, runTurn } from '../agent/turn.js';
import { UsageLedger } from '../agent/usage-ledger.js';
import type { EditDiagnostics } from '../agent/edit-diagnostics.js';
import { EngineFacts, type SessionDoctorFacts } from './engine-facts.js';
import { SessionConversation } from './session-conversation.js';
import { sessionInfo, type SessionInfo } from './session-info.js';
import type { PermissionBook } from './permission-book.js';
import { Hooks, type HookSessionFacts } from '../hooks/hooks.js';
import { atCompaction, stoppedError, tell, tellStop } from '../agent/turn-hooks.js';
import type { HookEvent } from '../hooks/hook-config.js';
import type { SessionRuntime } from './session-runtime.js';

export interface SessionOptions {
  runtime: SessionRuntime;
  config: Config;
  /** The project root: the folder reika runs in. */
  cwd: string;
  mode?: SessionMode;
  /** Nobody answers approval prompts: the system prompt says so. */
  headless?: boolean;
  /** Where the session's transcript goes (`actors/transcript/`); without one nothing is recorded. */
  transcript?: SessionRecorder;
  /**
   * A stored session to go on with: its frozen prompt, tools and conversation are taken as
   * recorded (no scan, no repo map), so its next request begins with the bytes of its last one.
   */
  resume?: ResumedSession;
  /** An editor hosts the session and offers its files: read, edit and write go through it (`reika acp`). */
  editorFiles?: ToolContext['editorFiles'];
  /**
   * The configuration of another folder, read at `/cd` (its `.env`): the tools' settings follow
   * the new folder, as they always have. Absent: they stay as they are.
   */
  configFor?: (root: string) => Config;
  /**
   * The permission rules and hooks of the settings layers (SPEC §17), in force as the book says
   * (a project's allow rules and hooks once it is trusted); none when absent.
   */
  permissions?: PermissionBook;
  /** `reika -p`: the bootstrap waits for the configured MCP servers up to their startup timeouts. */
  waitForMcp?: boolean;
}

/**
 * One reika session, for the terminal UI and the headless CLI alike: bootstrap once (index, repo
 * map, summary, AGENTS.md → one frozen system prompt), then turns, each with its own abort scope;
 * bootstrap and model discovery start in the constructor, and the first turn waits for them.
 * Each fact has one owner, asked by the others: the system prompt and tools ({@link FrozenPrompt}),
 * profile, connection, window and dialect ({@link ModelLink}), usage ({@link UsageLedger}), the
 * conversation and its place in the transcript ({@link SessionConversation}), the engine's facts
 * ({@link EngineFacts}). The session runs turns and forwards the `/` commands to them.
 */
export class Session {
  private readonly listeners = new Set<(event: AgentEvent) => void>();
  private readonly config: Config;
  private readonly runtime: SessionRuntime;
  private root: string;
  private approvals: ApprovalMode;
  private readonly editorFiles: ToolContext['editorFiles'];
  /** The settings the tools run under, from the configuration of the folder the session is in. */
  private toolSettings: ToolSettings;
  private readonly configFor: ((root: string) => Config) | undefined;
  /** The profile, its connection, the window and the dialect. */
  private readonly link: ModelLink;
  /** The system prompt and tools array every request starts with. */
  private readonly prompt: FrozenPrompt;
  /** Usage over the whole session, summed as each reply reports it. */
  private usage = new UsageLedger();
  /** This run's requests and usage: never restored from a transcript, never started over. */
  private readonly runUsage = new UsageLedger();
  /** The engine's record put to use: system placement, reasoning, llama.cpp fields, template check, cache figures. */
  private readonly facts: EngineFacts;
  /** The conversation under way, and where it begins and ends in the transcript. */
  private readonly conversation: SessionConversation;
  private current: { scope: string; controller: AbortController } | undefined;
  private readonly recorder: SessionRecorder | undefined;
  /** The abort scope of the session's own requests (model discovery), aborted by {@link close}. */
  private readonly scope = `session-${nanoid(8)}`;
  /** Set by {@link close}: no turn starts any more. */
  private closed: string | undefined;
  /** The session's hooks (an empty set without settings that name any). */
  private readonly hooks: Hooks;
  /** The permission rules and where they come from; `/permissions` and "Always" change them. */
  readonly permissions: PermissionBook | undefined;
  /** SessionEnd, once run (or running). */
  private ended: Promise<void> | undefined;
  /** SessionStart's hooks, running or run: the first turn waits for them (their context is its). */
  private started: Promise<void> = Promise.resolve();
  /**
   * What SessionStart's hooks gave the model (their output, `additionalContext`), not yet sent: it
   * goes with the session's next prompt, once, so the frozen system prompt stays as it was.
   */
  private startContext: string[] = [];

  constructor(options: SessionOptions) {
    this.config = options.config;
    this.runtime = options.runtime;
    this.root = resolve(options.cwd);
    this.approvals = options.config.approvals;
    this.editorFiles = options.editorFiles;
    this.toolSettings = options.config.tools;
    this.configFor = options.configFor;
    this.link = new ModelLink(this.runtime.supervisor, this.config, this.scope);
    this.recorder = options.transcript;
    const resume = options.resume;
    if (this.recorder) {
      const recorder = this.recorder;
      this.subscribe((event) => {
        if (event.type === 'turn-start' || event.type === 'turn-end' || event.type === 'compaction') recorder.observe(event, () => this.settings());
      });
    }
    this.facts = new EngineFacts(this.config);
    this.facts.follow(this.link.engineDetected());
    this.prompt = new FrozenPrompt(
      {
        runtime: this.runtime,
        config: this.config,
        mode: options.mode ?? resume?.settings?.mode ?? resume?.frozen.mode ?? 'agent',
        headless: options.headless ?? false,
        ...(options.waitForMcp ? { waitForMcp: true } : {}),
        ...(resume ? { resume: resume.frozen } : {}),
        onBootstrap: (boot) => this.emit({ type: 'bootstrap', root: boot.root, files: boot.index.paths.length, repoMapFiles: boot.repoMap.files.length - boot.repoMap.omitted, capped: boot.index.capped.length > 0, ms: boot.ms, ...(boot.repoMapError ? { repoMapError: boot.repoMapError } : {}), ...(boot.skills.problems.length > 0 ? { problems: boot.skills.problems } : {}) }),
      },
      this.root,
      this.link.repoMapBudget(this.config.repoMapBudget),
    );
    this.permissions = options.permissions;
    this.hooks = new Hooks(options.permissions?.hooks ?? [], () => this.hookFacts());
    if (this.hooks.size > 0) {
      this.sessionStart(resume ? 'resume' : 'startup');
      // Notification: reika waits for the person (an approval question).
      this.runtime.watchApprovals?.((phase) => {
        if (phase === 'ask' && this.hooks.has('Notification')) {
          void this.hooks.run('Notification', { message: 'reika needs your approval' }).then((outcome) => this.told('Notification', outcome));
        }
      });
    }
    this.conversation = new SessionConversation({ recorder: this.recorder, prompt: this.prompt, facts: this.facts, window: () => this.link.window, maxTokens: this.config.maxTokens });
    if (resume) this.adopt(resume);
  }

  /** The settings the tools run under in the folder the session is in (`/doctor`). */
  get tools(): ToolSettings {
    return this.toolSettings;
  }

  /** Settles when the bootstrap is done and the model is settled; rejects with a one-sentence error. */
  get ready(): Promise<void> {
    return Promise.all([this.prompt.ready, this.link.ready]).then(() => undefined);
  }

  /** The engine record, once detection answered (undefined before, or when it could not run). */
  get engine(): EngineInfo | undefined {
    return this.link.engine;
  }

  /** Settles with the engine record when detection is done (`reika doctor` waits for it). */
  engineDetected(): Promise<EngineInfo | undefined> {
    return this.link.engineDetected();
  }

  /**
   * Why the session has no connection to the model, or undefined when it has one. A failed
   * connection is tried again first, as the next turn would: the server may be up by now.
   */
  connectionProblem(): Promise<unknown> {
    return this.link.connectionOrRetry().then(
      () => undefined,
      (error: unknown) => error ?? new Error('the connection failed'),
    );
  }

  /** The frozen bootstrap (index paths for completion, repo map…), once it is built. */
  get bootstrap(): Bootstrap | undefined {
    return this.prompt.current?.boot;
  }

  /** The names in the frozen tools array (empty before the first bootstrap ends). */
  toolNames(): string[] {
    return this.prompt.toolNames();
  }

  /** The id of the transcript being written (none before the first turn, or without a store). */
  get transcriptId(): string | undefined {
    return this.recorder?.id;
  }

  /** The id of the transcript being written when it is kept (it holds a reply): what `reika --resume` takes. */
  get resumableId(): string | undefined {
    return this.recorder?.kept?.id;
  }

  /** The transcript file being written, if any (`/save` reads it). */
  get transcriptPath(): string | undefined {
    return this.recorder?.transcriptPath;
  }

  /**
   * `/resume`: goes on with a stored session of this folder (the current one stays resumable).
   * `attach` points the recorder at its transcript; its freeze and conversation are taken as recorded.
   */
  async resumeFrom(resumed: ResumedSession, attach: (recorder: SessionRecorder) => void): Promise<void> {
    this.assertIdle();
    if (this.recorder) attach(this.recorder);
    this.adopt(resumed);
    this.sessionStart('resume');
    await this.prompt.thaw(this.root, resumed.frozen, resumed.settings?.mode ?? resumed.frozen.mode);
  }

  private adopt(resumed: ResumedSession): void {
    this.conversation.resumeWith(resumed);
    this.usage = UsageLedger.restore(resumed.usage);
    this.facts.newConversation();
  }

  private settings(): SessionSettings {
    const profile = this.link.profile;
    return { mode: this.prompt.mode, approvals: this.approvals, profile: profile.name, ...(profile.model ? { model: profile.model } : {}) };
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
   * `readOnly` runs this turn's tools as plan mode does (`/init`): the tools array and system
   * prompt stay as they are (the prefix cache holds), but a call that would change something
   * comes back READ_ONLY_MODE.
   */
  async run(prompt: string, options: { images?: readonly Image[]; readOnly?: boolean } = {}): Promise<TurnResult> {
    if (this.current) throw new ReikaError('REIKA_ERR_BUSY', 'a turn is already running');
    const turn = nanoid(8);
    const started = Date.now();
    if (this.closed !== undefined) return endedEarly(turn, prompt, started, (event) => this.emit(event));
    const scope = `turn-${turn}`;
    const controller = new AbortController();
    this.current = { scope, controller };
    try {
      // UserPromptSubmit: a hook may stop the prompt (exit 2 / "block" / `continue: false`) or add
      // context (its output, `additionalContext`), which joins the prompt.
      if (this.hooks.has('UserPromptSubmit')) {
        const outcome = await this.hooks.run('UserPromptSubmit', { prompt }, { signal: controller.signal });
        tell({ turn, emit: (event) => this.emit(event) }, { ...outcome, output: [] });
        if (outcome.stop !== undefined) return endedEarly(turn, prompt, started, (event) => this.emit(event), stoppedError({ event: 'UserPromptSubmit', reason: outcome.stop }));
        if (outcome.block !== undefined) {
          const why = outcome.block.trim().replace(/\s*\n\s*/g, ' ') || 'no reason given';
          return endedEarly(turn, prompt, started, (event) => this.emit(event), { code: 'REIKA_ERR_PROMPT_BLOCKED', message: `a UserPromptSubmit hook did not let the prompt through: ${why}` });
        }
        if (controller.signal.aborted) return endedEarly(turn, prompt, started, (event) => this.emit(event));
        if (outcome.context.length > 0) prompt = `${prompt}\n\n<user-prompt-submit-hook>\n${outcome.context.join('\n')}\n</user-prompt-submit-hook>`;
      }
      let frozen: Frozen;
      let connection: Connection;
      try {
        [frozen, connection] = await untilAborted(Promise.all([this.prompt.ready, this.link.connectionOrRetry(), this.started]), controller.signal, () => cancelledError('aborted'));
        const late = await this.prompt.withLateTools(frozen);
        if (late !== frozen) this.conversation.joinLateTools(late);
        frozen = late;
      } catch (error) {
        return endedEarly(turn, prompt, started, (event) => this.emit(event), controller.signal.aborted ? undefined : describe(error));
      }
      this.prompt.markSent(frozen);
      this.facts.follow(this.link.engineDetected());
      const context = await this.conversation.forTurn(frozen, connection.endpoint.model, this.root);
      let images: TurnImage[] = [];
      if (options.images?.length || imageMentions(prompt).length > 0) {
        try {
          const prepared = await prepareImages(prompt, options.images ?? [], { config: this.config, profile: this.link.profile, router: this.runtime.supervisor, scope, signal: controller.signal, root: this.root });
          prompt = prepared.prompt;
          images = prepared.images;
          for (const problem of prepared.problems) this.emit({ type: 'notice', turn, message: problem });
        } catch {
          return endedEarly(turn, prompt, started, (event) => this.emit(event));
        }
      }
      // SessionStart's context goes with this prompt, once.
      if (this.startContext.length > 0) prompt = `${prompt}\n\n<session-start-hook>\n${this.startContext.splice(0).join('\n')}\n</session-start-hook>`;
      const result = await runTurn(prompt, {
        images,
        router: this.runtime.supervisor,
        turn,
        scope,
        signal: controller.signal,
        endpoint: this.facts.endpointFor(connection.endpoint),
        tools: frozen.tools,
        route: (name) => routeOf(frozen.registry, name),
        toolContext: this.toolContext(options.readOnly ? 'plan' : frozen.mode),
        context,
        maxRequests: this.config.maxTurns,
        ...(options.readOnly ? {} : this.editDiagnostics()),
        wave: this.waves(frozen, connection),
        emit: (event) => {
          // A tool call about to be routed: the executor must exist now (the supervisor queues the call while it boots).
          if (event.type === 'tool-call' && event.previous === undefined) this.runtime.prewarm?.({ now: true });
          this.emit(event);
        },
        sent: (messages, tools) => {
          // The tool executor boots while the model answers the first request: its spawn holds this
          // thread, and before the first request it would hold engine detection and the request too.
          this.runtime.prewarm?.();
          this.facts.sent(turn, messages, tools, (event) => this.emit(event));
        },
        watchApprovals: this.runtime.watchApprovals,
        ...(this.hooks.size > 0 ? { hooks: this.hooks } : {}),
      });
      // The template check of the turn's last requests (milliseconds in the worker) ends with the turn.
      await this.facts.settled();
      this.link.noteDialect(result.dialect);
      return result;
    } finally {
      this.current = undefined;
    }
  }

  /**
   * SessionStart's hooks, for a conversation that begins: at the start (`startup`, or `resume`),
   * on `/resume` (`resume`) and on `/new` or `/cd` (`clear`), as Claude Code runs them. What they
   * give the model goes with that conversation's first prompt; what an earlier run gave and was
   * not sent is dropped with the conversation it was for.
   */
  private sessionStart(source: 'startup' | 'resume' | 'clear'): void {
    if (!this.hooks.has('SessionStart')) return;
    this.startContext = [];
    const context = this.startContext;
    this.started = this.hooks.run('SessionStart', { source }).then((outcome) => {
      this.told('SessionStart', outcome);
      context.push(...outcome.context);
    });
  }

  /** What a hook outside a turn said, as notices; its `continue: false` has no turn to end, so it is told too. */
  private told(event: HookEvent, outcome: Parameters<typeof tell>[1]): void {
    const context = { turn: this.scope, emit: (e: AgentEvent) => this.emit(e) };
    tell(context, outcome);
    if (outcome.stop !== undefined) tellStop(context, event, outcome.stop);
  }

  /** What every hook is told of the session. */
  private hookFacts(): HookSessionFacts {
    return { sessionId: this.recorder?.id ?? this.scope, ...(this.recorder?.transcriptPath ? { transcriptPath: this.recorder.transcriptPath } : {}), cwd: this.root };
  }

  /** What every tool call of a turn carries: root, approvals mode, agent mode and the rules in force now. */
  private toolContext(mode: ToolContext['mode']): ToolContext {
    const permissions = this.permissions?.inForce() ?? [];
    return { root: this.root, approvals: this.approvals, mode, settings: this.toolSettings, ...(this.editorFiles ? { editorFiles: this.editorFiles } : {}), ...(permissions.length > 0 ? { permissions } : {}) };
  }

  /** `/doctor`'s lines about the language servers: one per language, or why diagnostics are off. */
  async languageServers(): Promise<string[]> {
    if (!this.runtime.diagnostics) return ['not available in this session'];
    if (!this.config.diagnostics.enabled) return ['off (REIKA_DIAGNOSTICS=off)'];
    const lsp = await this.runtime.diagnostics(this.config.diagnostics.waitMs);
    return lsp.status(this.root);
  }

  /**
   * Diagnostics after edits for this turn's root (SPEC §19): off with REIKA_DIAGNOSTICS=off; the
   * wait after an edit is REIKA_DIAGNOSTICS_MS (default 3 s).
   */
  private editDiagnostics(): { diagnostics?: EditDiagnostics } {
    if (!this.runtime.diagnostics || !this.config.diagnostics.enabled) return {};
    const servers = this.runtime.diagnostics(this.config.diagnostics.waitMs);
    const root = this.root;
    return {
      diagnostics: {
        before: (path) => servers.then((lsp) => lsp.before(root, path)).catch(() => undefined),
        after: (path, created) => servers.then((lsp) => lsp.after(root, path, created)).catch(() => undefined),
      },
    };
  }

  /** A turn's subagent waves: the session's brief, spread over REIKA_SUBAGENT_PROFILES when set. */
  private waves(frozen: Frozen, connection: Connection): SubagentWaves {
    const permissions = this.permissions?.inForce() ?? [];
    const hooks = this.permissions?.hooks.filter((hook) => hook.event === 'PreToolUse' || hook.event === 'PostToolUse' || hook.event === 'SubagentStop') ?? [];
    const facts = this.hookFacts();
    const input = {
      config: this.config, endpoint: this.facts.endpointFor(connection.endpoint), window: this.link.window, root: this.root, system: frozen.subagentSystem, tools: frozen.subagentTools, approvals: this.approvals, toolSettings: this.toolSettings,
      ...(permissions.length > 0 ? { permissions } : {}),
      ...(hooks.length > 0 ? { hooks: { entries: hooks, sessionId: facts.sessionId, ...(facts.transcriptPath ? { transcriptPath: facts.transcriptPath } : {}) } } : {}),
    };
    return new SubagentWaves({ router: this.runtime.supervisor, brief: subagentBrief(input), spread: spreadBriefs(input), ...this.facts.waveSlots(connection.endpoint.baseUrl) });
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

  /**
   * The session ends (a signal, the UI closing): the running turn is aborted, the session's own
   * requests (model discovery under way at startup) are cancelled, and no turn starts any more.
   */
  close(reason = 'the session was closed'): void {
    if (this.closed !== undefined) return;
    this.closed = reason;
    this.abort(reason);
    this.runtime.supervisor.abort(this.scope, reason);
  }

  /**
   * SessionEnd: the session's hooks are told it ends (once; later calls wait for the same run).
   * Call it after {@link close}, before the runtime closes; it settles within the hooks' timeout.
   */
  end(reason: string): Promise<void> {
    this.ended ??= this.hooks.has('SessionEnd')
      ? this.hooks.run('SessionEnd', { reason }).then((outcome) => this.told('SessionEnd', outcome))
      : Promise.resolve();
    return this.ended;
  }

  /** `/compact`: one compaction event by hand (undefined when there was nothing to shed). */
  compact(): Compaction | undefined {
    const event = this.conversation.current?.compact();
    if (event) {
      this.emit({ type: 'compaction', ...event });
      void atCompaction({ hooks: this.hooks, turn: this.scope, signal: new AbortController().signal, root: this.root, emit: (e) => this.emit(e) }, 'manual');
    }
    return event;
  }

  /** `/new`: a fresh conversation with the same frozen system prompt. */
  newConversation(): void {
    this.assertIdle();
    this.conversation.startOver();
    this.usage.newConversation();
    this.facts.newConversation();
    this.sessionStart('clear');
  }

  /**
   * `/cd PATH` (and `/cd .`): a new root, re-bootstrapped; the conversation starts over. The tools
   * are taken anew too, so MCP servers that became ready since join here; `added` and `removed`
   * say which tool names changed.
   */
  async cd(path: string): Promise<{ boot: Bootstrap } & ToolChange> {
    this.assertIdle();
    const root = resolve(this.root, path);
    if (!isFolder(root)) throw new ReikaError('REIKA_ERR_NO_SUCH_FOLDER', `${root} is not a folder`);
    // A bad setting in the new folder's .env stops the move here, before anything changed.
    const toolSettings = this.configFor?.(root).tools ?? this.toolSettings;
    const before = this.prompt.current?.tools;
    this.root = root;
    this.toolSettings = toolSettings;
    this.conversation.startOver();
    this.usage.newConversation();
    this.facts.newConversation();
    this.sessionStart('clear');
    const frozen = await this.prompt.boot(root, this.link.repoMapBudget(this.config.repoMapBudget));
    return { boot: frozen.boot, ...(before ? toolChange(before, frozen.tools) : { added: [], removed: [] }) };
  }

  /** `/model NAME`: another profile (or model name on the current server); the prefix cache restarts. */
  switchProfile(name: string): Promise<Connection> {
    this.assertIdle();
    // The context manager asks the link for the window: the new connection's applies at once.
    return this.link.switchTo(name);
  }

  /** The models the current profile's server lists (`/v1/models`); empty when it lists none. */
  serverModels(): Promise<string[]> {
    return this.link.serverModels();
  }

  /** Why a pasted image cannot be used with the current profile (e.g. no OCR on Linux), if it cannot. */
  imageProblem(): string | undefined {
    return pasteProblem({ config: this.config, profile: this.link.profile });
  }

  setApprovals(mode: ApprovalMode): void {
    this.approvals = mode;
  }

  /** `/mode agent|plan`: the system prompt and tools change, so the prefix cache restarts. */
  async setMode(mode: SessionMode): Promise<void> {
    this.assertIdle();
    if (mode === this.prompt.mode) return;
    const frozen = await this.prompt.setMode(mode);
    this.conversation.refreeze(frozen, this.root);
    this.facts.restartPrefix();
  }

  /** True once a request went out with the current tools array: from then on only `/mcp reload` or `/cd` change it. */
  get toolsFixed(): boolean {
    return this.prompt.toolsFixed;
  }

  /**
   * `/mcp reload`: the MCP config is read again and the tools array is taken anew with the servers
   * ready now. The system prompt stays; the tools change, so the prefix cache restarts once.
   * Returns the tool names that joined and left.
   */
  async reloadTools(): Promise<ToolChange> {
    this.assertIdle();
    const { before, after } = await this.prompt.reloadTools(this.root);
    this.conversation.refreeze(after, this.root);
    this.facts.restartPrefix();
    return toolChange(before.tools, after.tools);
  }


  info(): SessionInfo {
    return sessionInfo({ root: this.root, link: this.link, mode: this.prompt.mode, approvals: this.approvals, context: this.conversation.shown, usage: this.usage, run: this.runUsage, facts: this.facts, busy: this.busy });
  }

  /** Settles when what the session asks the server besides its turns (after a warm start) is answered; a headless run waits for it before it ends. */
  settled(): Promise<void> {
    return this.link.refreshed();
  }

  /** What `/doctor` shows of this session. */
  doctorFacts(): SessionDoctorFacts {
    return this.facts.doctorFacts(this.link.engine);
  }

  /** Every event passes here: the usage ledger counts requests and sums usage as they happen. */
  private emit(input: AgentEvent): void {
    const event = this.facts.track(input);
    if (event.type === 'request') {
      this.usage.countRequest();
      this.runUsage.countRequest();
    }
    else if (event.type === 'prefill' || event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'tool-call') this.link.answering();
    else if (event.type === 'usage') {
      this.usage.record(event.usage);
      this.runUsage.record(event.usage);
      this.link.replied();
    }
    for (const listener of this.listeners) listener(event);
  }

  private assertIdle(): void {
    if (this.current) throw new ReikaError('REIKA_ERR_BUSY', 'wait for the turn to end (or abort it) first');
  }


}


/** The actor a foreign tool runs in (an MCP server's), or undefined for the tool executor. */
function routeOf(registry: ToolRegistry, name: string): ActorAddress<ToolExecutorProtocol> | undefined {
  const runs = registry.get(name)?.runs;
  return typeof runs === 'object' ? actorAddress<ToolExecutorProtocol>(runs.actor) : undefined;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
