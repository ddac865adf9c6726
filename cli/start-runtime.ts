import { defineActor, type ActorDefinition } from '../runtime/actor.js';
import { Supervisor, type SupervisorOptions } from '../runtime/supervisor.js';
import { ReikaError } from '../runtime/errors.js';
import { pollTurn } from '../runtime/poll-turn.js';
import { CLEARANCE, clearance } from '../runtime/clearance.js';
import { TOOL_EXECUTOR } from '../actors/tool-executor/protocol.js';
import { APPROVER } from '../actors/approver/protocol.js';
import { approverActor, type ApprovalPhase, type ApproveFn } from '../actors/approver/actor.js';
import { EDITOR_FILES } from '../actors/editor-files/protocol.js';
import { editorFilesActor, type EditorFilesFn } from '../actors/editor-files/actor.js';
import { INDEXER, type IndexerProtocol } from '../actors/indexer/protocol.js';
import { MODEL_IO } from '../actors/model-io/protocol.js';
import { SUBAGENTS, type DispatcherProtocol } from '../actors/subagent/protocol.js';
import { traceStartup } from '../actors/indexer/startup-trace.js';
import { startupThreadsEnded } from '../actors/indexer/startup-thread.js';
import type { McpHub } from '../actors/mcp/hub.js';
import type { Diagnostics } from '../actors/lsp/diagnostics.js';
import type { McpServerConfig } from '../actors/mcp/config.js';
import { INDEXER_MODULE, MODEL_IO_MODULE, TOOL_EXECUTOR_MODULE } from './actor-modules.js';

export interface RuntimeOptions {
  /** Answers the tool executor's approval requests (the TUI's prompt; headless declines). */
  approve: ApproveFn;
  /** Working directory of the tool-executor process. */
  cwd: string;
  /** Tests pass a hand-advanced clock, or watch the envelopes delivered. */
  supervisor?: SupervisorOptions;
  /** Nobody can approve a project's MCP servers: they are declined (unless REIKA_MCP_TRUST_PROJECT=1). */
  headless?: boolean;
  /** Where MCP config and trust are read (HOME, XDG_*, REIKA_MCP_TRUST_PROJECT); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The run's interrupt (cli/early-interrupt.ts): once it fired, no actor process is started any more. */
  signal?: AbortSignal;
  /**
   * The editor's files (`reika acp` with an editor offering ACP `fs`): answers the executor's
   * {@link EDITOR_FILES} requests for sessions whose tool context says so.
   */
  editorFiles?: EditorFilesFn;
  /** MCP servers given besides the configured ones (an editor's, `reika acp`). */
  mcpServers?: readonly McpServerConfig[];
}

/**
 * Heartbeat of model-io and the tool executor: a ping every second; one left unanswered for 15 s
 * means the actor is hung (e.g. a tool stuck in a synchronous loop): it is killed and restarted,
 * failing the request it held.
 */
export const HEARTBEAT_MS = 1_000;
export const HANG_AFTER_MS = 15_000;

export interface Runtime {
  /** Routes requests by name and fans out one abort per turn scope. */
  readonly supervisor: Supervisor;
  /** Settles when every actor is up; rejects with the first that could not start. */
  readonly ready: Promise<void>;
  /** Settles when the indexer is registered (its module loads lazily); the bootstrap waits for it. */
  readonly indexerReady: Promise<void>;
  /**
   * Starts the tool-executor process if it is not started yet (idempotent): once model-io is up
   * and the startup indexer thread has ended, or with `now` at once (a tool call is about to be
   * routed to it: the supervisor queues it while the process boots).
   */
  prewarm(how?: { now?: boolean }): void;
  /**
   * No tool call is coming any more (a headless run's turn has ended): a tool executor not started
   * yet is never started, and one that is up or still booting is stopped now instead of at
   * `close`, so it does not boot, only to be shut down, while the run winds down.
   */
  toolsDone(): Promise<void>;
  /** Tells `listener` when the approver is asked and when it answered (the tool call waits meanwhile). */
  watchApprovals(listener: (phase: ApprovalPhase) => void): () => void;
  /** The MCP servers (one supervised actor each), loaded on first call. */
  mcp(): Promise<McpHub>;
  /** The language servers for diagnostics after edits (one supervised actor each, started at the first edit of their language), loaded on first call. */
  diagnostics(waitMs: number): Promise<Diagnostics>;
  /** Ends every actor, thread and process. */
  close(): Promise<void>;
}

const modelIoModule = MODEL_IO_MODULE;
const toolExecutorModule = TOOL_EXECUTOR_MODULE;
const indexerModule = INDEXER_MODULE;

/**
 * The subagent dispatcher, registered at once but loaded after model-io has been spawned: its
 * modules (the agent loop among them) are not needed before the model's first reply, and loading
 * them first would delay the model-io thread's boot.
 */
function lazyDispatcher(supervisor: Supervisor): ActorDefinition<DispatcherProtocol> {
  const loading = import('../actors/subagent/dispatcher.js').then((loaded) => loaded.subagentDispatcher(supervisor));
  loading.catch(() => {});
  return defineActor<DispatcherProtocol>({
    async handle(request, context) {
      return (await loading).handle(request, context);
    },
  });
}

/**
 * Spawns reika's actor tree: model-io in a worker thread (adopting the one `main.ts` started
 * first, `runtime/prespawn.ts`), the tool executor in a child process,
 * the indexer (front of its piscina pool) and the approver in the main thread. Nothing here
 * waits: requests to an actor still starting are queued by the supervisor, so the caller can
 * start its bootstrap at once and spawning overlaps the scan.
 *
 * The tool executor is not needed before the model's first reply, so its process starts on
 * {@link Runtime.prewarm} (the session calls it once its first request has gone to model-io), and
 * not before the model-io thread is up and the startup indexer thread has ended: on a small machine
 * a Node process booting beside the scan thread or the model-io thread would delay the first
 * request (bench/startup.bench.ts), and the spawn holds the main thread until the child has
 * exec'd, so before the first request it would hold engine detection and a signal's handling too.
 * A tool call that comes before that starts it at once (`prewarm({ now: true })`). The MCP servers' hub
 * loads on first use, which the session makes right after its bootstrap.
 */
export function startRuntime(options: RuntimeOptions): Runtime {
  const supervisor = new Supervisor(options.supervisor);
  const watchers = new Set<(phase: ApprovalPhase) => void>();
  const approver = approverActor(options.approve, (phase) => {
    for (const watcher of watchers) watcher(phase);
  });
  // A definition of its own per runtime: it owns a pool, which closing another runtime in the
  // same process (tests run several) must not end under this one's bootstrap.
  const indexerReady = import(indexerModule.href).then((loaded: { createIndexerActor(): ActorDefinition<IndexerProtocol, unknown> }) =>
    supervisor.register(INDEXER, loaded.createIndexerActor()),
  );
  let executorStarted!: (spawned: Promise<void>) => void;
  const executor = new Promise<void>((resolve) => (executorStarted = resolve)).then((spawned) => spawned);
  const watch = { heartbeatMs: HEARTBEAT_MS, hangAfterMs: HANG_AFTER_MS };
  const modelIo = supervisor.spawn({ name: MODEL_IO, title: 'the thread that talks to the model', kind: 'thread', module: modelIoModule, ...watch });
  let spawned = false;
  let toolsOver = false;
  const spawnExecutor = () => {
    if (spawned) return;
    spawned = true;
    if (toolsOver) return executorStarted(Promise.reject(new ReikaError('REIKA_ERR_CLOSED', 'no tool call was made')));
    if (options.signal?.aborted) return executorStarted(Promise.reject(new ReikaError('REIKA_ERR_CLOSED', 'reika was interrupted')));
    traceStartup('runtime: tool executor starting');
    executorStarted(supervisor.spawn({ name: TOOL_EXECUTOR, title: 'the process that runs the tools', kind: 'process', module: toolExecutorModule, cwd: options.cwd, ...watch }));
  };
  let prewarmed = false;
  const prewarm = (how: { now?: boolean } = {}) => {
    if (how.now) return spawnExecutor();
    if (prewarmed) return;
    prewarmed = true;
    // After model-io is up (or failed) and the requests queued for it have gone out, and after the
    // startup indexer thread has ended (on a cold start it writes the bootstrap cache after the
    // map is ranked): the executor's process boots while neither holds the cores or the memory. A
    // spawn holds this thread until the child has exec'd (milliseconds, tens under load): an
    // interrupt that came before it is seen first, and then nothing is started.
    const start = () => void pollTurn().then(spawnExecutor);
    void Promise.allSettled([modelIo, startupThreadsEnded()]).then(start);
  };
  const ready = Promise.all([
    modelIo.then(() => traceStartup('runtime: model-io ready')),
    supervisor.register(APPROVER, approver),
    ...(options.editorFiles ? [supervisor.register(EDITOR_FILES, editorFilesActor(options.editorFiles))] : []),
    // model-io asks it before a request it sends on its own: nothing leaves after a signal the main thread had yet to see.
    supervisor.register(CLEARANCE, clearance),
    // Spawns a worker thread `subagent/N` per subagent call and stops it when it has reported.
    supervisor.register(SUBAGENTS, lazyDispatcher(supervisor)),
    indexerReady,
    executor,
  ]).then(() => undefined);
  ready.catch(() => {});
  indexerReady.catch(() => {});
  // A killed executor's commands are killed by the next executor; when none comes (it crash-looped,
  // or the run ends first), by the runtime: no `sleep 30` outlives reika.
  const reapLeftovers = () =>
    import('../actors/tool-executor/process/process-groups.js')
      .then(({ ProcessGroups }) => new ProcessGroups(-1, process.pid).reapLeftoversAndWait())
      .catch(() => 0);
  supervisor.on('crash-loop', (name: string) => {
    if (name === TOOL_EXECUTOR) void reapLeftovers();
  });
  let hub: Promise<McpHub> | undefined;
  let lsp: Promise<Diagnostics> | undefined;
  return {
    supervisor,
    ready,
    indexerReady,
    prewarm,
    async toolsDone() {
      toolsOver = true;
      if (!spawned) return spawnExecutor();
      await supervisor.stop(TOOL_EXECUTOR);
    },
    watchApprovals(listener) {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
    mcp: () =>
      (hub ??= import('../actors/mcp/hub.js').then((loaded) => new loaded.McpHub({ supervisor, headless: options.headless ?? false, ...(options.env ? { env: options.env } : {}), ...(options.mcpServers ? { extra: options.mcpServers } : {}) }))),
    diagnostics: (waitMs) => (lsp ??= import('../actors/lsp/diagnostics.js').then((loaded) => new loaded.Diagnostics({ supervisor, waitMs }))),
    close: async () => {
      await supervisor.close();
      await reapLeftovers();
    },
  };
}
