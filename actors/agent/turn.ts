import { client, type ActorAddress } from '../../runtime/actor.js';
import type { RequestOptions, Router } from '../../runtime/calls.js';
import { isCancelled, ReikaError } from '../../runtime/errors.js';
import { pollTurn } from '../../runtime/poll-turn.js';
import type { ContextManager } from '../context/context-manager.js';
import type { TurnImage } from '../images/image.js';
import { MODEL_IO, type ChatMessage, type ChatReply, type Endpoint, type ModelIoRequest, type ToolCall, type ToolSchema } from '../model-io/protocol.js';
import { diskAfterCrash } from '../tool-executor/files/disk-after-crash.js';
import { redactorFor } from '../tool-executor/safety/secret-env.js';
import type { Redactor } from '../tool-executor/safety/redactor.js';
import { TOOL_EXECUTOR, type ToolContext, type ToolExecutorProtocol, type ToolDelta, type ToolExecutorRequest, type ToolResult } from '../tool-executor/protocol.js';
import type { AgentEvent, TodoItem, ToolCallRecord, TurnResult, TurnStatus } from './events.js';
import { agentEventOf } from './map-model-event.js';
import { emptyTotals, UsageLedger } from './usage-ledger.js';
import { LoopGuard, strongest, type GuardVerdict } from './loop-guard.js';
import { editedPath, withDiagnostics, type EditDiagnostics } from './edit-diagnostics.js';
import { pendingCall, transition, type ToolCallChange, type ToolCallState } from './tool-call-state.js';
import type { Hooks } from '../hooks/hooks.js';
import { afterCall, atCompaction, atStop, beforeCall, stoppedError, stoppedResult, type PreCallVerdict, type TurnHookContext } from './turn-hooks.js';

// One turn of the agent loop: stream the model's reply, run its tool calls through the tool
// executor (or the actor a tool names, {@link TurnOptions.route}), append the results, repeat until the model answers without tools, the request
// budget runs out or the loop guard stops it. Depends only on a {@link Router}, so the same
// loop runs in the main thread and inside a subagent's worker thread.

export interface TurnOptions {
  router: Router;
  /** Id of the turn, used in events. */
  turn: string;
  /** Abort scope carried by every request of the turn: its one abort stops the actors' work. */
  scope: string;
  /** Aborted with the turn; the loop checks it between steps (requests do not carry it). */
  signal: AbortSignal;
  endpoint: Endpoint;
  /** The session's fixed tools array. */
  tools: ToolSchema[];
  /**
   * The actor that runs a tool defined with `runs: { actor }` (an MCP server's), which answers the
   * executor's `run` request; undefined sends the call to the tool executor.
   */
  route?(name: string): ActorAddress<ToolExecutorProtocol> | undefined;
  toolContext: ToolContext;
  context: ContextManager;
  /** REIKA_MAX_TURNS: chat requests allowed in this turn. */
  maxRequests: number;
  emit(event: AgentEvent): void;
  /** Appended before the last budgeted request (e.g. a subagent's "report now"). */
  lastRequestNote?: string;
  /** The last budgeted request withholds tools (`tool_choice: none`; the tools array stays for the prefix cache). */
  lastRequestWithoutTools?: boolean;
  /** Runs the calls of one response that must go together (the `subagent` wave) before their siblings. */
  wave?: WaveHook;
  /** Lets the approver report that the running call waits for a person, and when it was answered. */
  watchApprovals?(listener: (phase: 'ask' | 'answered') => void): () => void;
  /** Images sent natively with the prompt, for this turn only (their notes stay afterwards). */
  images?: TurnImage[];
  /** Language servers: an edit's or write's result carries the errors it introduced (SPEC §19). */
  diagnostics?: EditDiagnostics;
  /** Called once a request has gone to model-io, with what it carried (the template check renders it then). */
  sent?(messages: ChatMessage[], tools: ToolSchema[]): void;
  /** The session's hooks (SPEC §17): PreToolUse, PostToolUse, PreCompact, and the stop event when the model has answered. */
  hooks?: Hooks;
  /** The event run when the model has answered: `Stop` for the session's turns, `SubagentStop` for a subagent's. */
  stopEvent?: 'Stop' | 'SubagentStop';
}

/**
 * Takes some calls of one response and runs them together before the others run one by one.
 * `run` walks a call's state and records it like any other call; `send` makes its request.
 * Returns a result per taken call, or undefined when it takes none.
 */
export interface WaveHook {
  run(calls: readonly ToolCall[], run: (call: ToolCall, send: (options: RequestOptions<ToolDelta>) => Promise<ToolResult>) => Promise<ToolResult>): Promise<Map<string, ToolResult>> | undefined;
}

/**
 * An empty reply (no text, no calls) is first asked again as it was: the engine has that whole
 * prompt cached, and a sampled model seldom answers nothing twice. A second one gets one nudge
 * before the turn gives up on it: after tool results already sent the nudge is a new user message,
 * where some templates re-render history (Qwen3.5 drops earlier reasoning blocks, Mistral moves
 * its tools block: most of the prompt prefilled again) and others lose the generation prompt.
 */
const EMPTY_REPLY_NUDGE = 'Your last reply was empty. Continue with the task (call a tool) or give your final answer.';

/**
 * A turn that ended before it could run (the session closed, the model never settled, the abort
 * came first, its images could not be read): its start and end are told like any turn's.
 */
export function endedEarly(turn: string, prompt: string, started: number, emit: (event: AgentEvent) => void, error?: { code: string; message: string }): TurnResult {
  const result: TurnResult = { status: error ? 'error' : 'aborted', answer: '', requests: 0, toolCalls: [], usage: emptyTotals(), requestUsage: [], compactions: 0, durationMs: Date.now() - started, ...(error ? { error } : {}) };
  emit({ type: 'turn-start', turn, prompt });
  emit({ type: 'turn-end', turn, result });
  return result;
}

export async function runTurn(prompt: string, options: TurnOptions): Promise<TurnResult> {
  const started = Date.now();
  const { context, emit, turn } = options;
  const usage = new UsageLedger();
  const requestUsage: TurnResult['requestUsage'] = [];
  const toolCalls: ToolCallRecord[] = [];
  const guard = new LoopGuard();
  let requests = 0;
  let compactions = 0;
  let answer = '';
  /** The first empty reply since the last call was asked again; the second was nudged. */
  let emptyReplies = 0;
  /** Replies in a row whose call markup could not be used (the second ends the turn). */
  let unreadableCalls = 0;
  let dialect: string | undefined;
  const hooked = hookContext(options);
  /** A stop hook has sent the model on once already this turn (hooks are told, so they can let it end). */
  let stopHookActive = false;
  /** The task list the turn's last `todo` call set. */
  let todo: TodoItem[] | undefined;

  const finish = (status: TurnStatus, error?: TurnResult['error']): TurnResult => {
    context.endTurn(status === 'answered' ? 'answered' : 'unanswered');
    const result: TurnResult = { status, answer, requests, toolCalls, usage: usage.totals, requestUsage, compactions, durationMs: Date.now() - started, ...(error ? { error } : {}), ...(todo ? { todo } : {}), ...(dialect ? { dialect } : {}) };
    emit({ type: 'turn-end', turn, result });
    return result;
  };
  const nudge = (text: string) => {
    context.addNudge(text);
    emit({ type: 'nudge', turn, text });
  };

  emit({ type: 'turn-start', turn, prompt });
  if (options.images?.length) context.addUserImages(prompt, options.images);
  else context.addUser(prompt);

  while (true) {
    // A signal or abort that came while the loop ran on settled promises is seen before a request goes out.
    await pollTurn();
    if (options.signal.aborted) return finish('aborted');
    if (requests >= options.maxRequests) {
      return finish('max-turns', { code: 'REIKA_ERR_MAX_TURNS', message: `stopped after ${requests} model requests (REIKA_MAX_TURNS=${options.maxRequests}) without a final answer` });
    }
    if (requests === options.maxRequests - 1 && options.lastRequestNote) nudge(options.lastRequestNote);
    let prepared: ReturnType<ContextManager['prepare']>;
    try {
      prepared = context.prepare();
    } catch (error) {
      return finish('error', describe(error));
    }
    if (prepared.compaction) {
      compactions++;
      emit({ type: 'compaction', turn, ...prepared.compaction });
      if (hooked) await atCompaction(hooked, 'auto');
      if (hooked?.stopped) return finish('error', stoppedError(hooked.stopped));
    }
    requests++;
    emit({ type: 'request', turn, n: requests, estimateTokens: prepared.estimateTokens, maxTokens: prepared.maxTokens });
    const body: ModelIoRequest = { type: 'chat', endpoint: options.endpoint, messages: prepared.messages, tools: options.tools, ...(prepared.maxTokens !== undefined ? { maxTokens: prepared.maxTokens } : {}) };
    if (requests === options.maxRequests && options.lastRequestWithoutTools) body.toolChoice = 'none';
    let reply: ChatReply;
    try {
      const n = requests;
      const replied = client(options.router, MODEL_IO).request(body, {
        scope: options.scope,
        onDelta: (event) => {
          const mapped = agentEventOf(event, turn, n);
          if (mapped) emit(mapped);
        },
      });
      options.sent?.(prepared.messages, options.tools);
      reply = await replied;
    } catch (error) {
      if (options.signal.aborted || isCancelled(error)) return finish('aborted');
      return finish('error', describe(error));
    }
    requestUsage.push(reply.usage);
    if (reply.dialect) dialect = reply.dialect;
    context.recordUsage(reply.usage, reply.finishReason);
    if (reply.usage) {
      usage.record(reply.usage);
      emit({ type: 'usage', turn, n: requests, usage: reply.usage });
    }
    const aborted = options.signal.aborted || reply.finishReason === 'aborted';
    const calls = aborted ? [] : reply.toolCalls;
    if (reply.text !== '' || calls.length > 0) context.addAssistant(reply.text, calls, undefined, reply.reasoning);
    if (reply.text !== '') answer = reply.text;
    if (aborted) return finish('aborted');
    if (calls.length === 0 && reply.correction) {
      if (++unreadableCalls >= 2) {
        return finish('error', { code: 'REIKA_ERR_UNREADABLE_TOOL_CALL', message: 'the model wrote tool calls that could not be read twice in a row; try another model or enable the server\'s tool-call parser' });
      }
      nudge(reply.correction);
      continue;
    }
    // A reply that calls tools is progress: what went wrong before counts no more (else a long
    // turn ends at an empty reply hundreds of rounds after the first one was nudged).
    if (calls.length > 0) {
      unreadableCalls = 0;
      emptyReplies = 0;
    }
    if (calls.length === 0) {
      if (reply.text.trim() !== '' || emptyReplies > 1) {
        // A stop hook may send the model on, its reason as the instruction (exit 2 / "block").
        const goOn = hooked && (await atStop(hooked, options.stopEvent ?? 'Stop', stopHookActive));
        if (!goOn) return finish('answered');
        stopHookActive = true;
        nudge(goOn);
        continue;
      }
      // Asked again only when nothing was added: the next request is then this one, byte for byte.
      emptyReplies += emptyReplies === 0 && reply.text === '' ? 1 : 2;
      if (emptyReplies > 1) nudge(EMPTY_REPLY_NUDGE);
      continue;
    }

    let verdict: GuardVerdict = { action: 'ok' };
    await pollTurn();
    const early = options.signal.aborted ? undefined : await options.wave?.run(calls, (call, send) => runCall(call, options, toolCalls, hooked, send));
    let gone: ToolResult | undefined;
    for (const call of calls) {
      const result = early?.get(call.id) ?? (await runCall(call, options, toolCalls, hooked));
      context.addToolResult({ callId: call.id, name: call.name, summary: result.summary, payload: result.payload, status: result.status });
      if (result.status === 'done' && result.meta?.todo) {
        todo = result.meta.todo;
        emit({ type: 'todo', turn, items: todo });
      }
      verdict = strongest(verdict, guard.observe(call, result));
      if (result.errorCode === EXECUTOR_GONE) gone ??= result;
    }
    if (options.signal.aborted) return finish('aborted');
    // A hook answered `continue: false`: every call has its result, and the model is not asked again.
    if (hooked?.stopped) return finish('error', stoppedError(hooked.stopped));
    // The tool executor will not come back (a crash loop, or it never started): every later call
    // would fail the same way, so the turn ends here, saying why (else the model goes on calling
    // tools that fail at once until the loop guard stops it as "the same edit failed 3 times").
    if (gone) return finish('error', { code: EXECUTOR_GONE, message: gone.summary.replace(/^\S+ failed: /, '') });
    if (verdict.action === 'stop') {
      nudge(`Stopped: ${verdict.message}.`);
      return finish('loop', { code: 'REIKA_ERR_LOOP', message: `stopped: ${verdict.message}` });
    }
    if (verdict.action === 'note') nudge(verdict.message);
    if (reply.correction) nudge(reply.correction);
  }
}

/** The turn's meeting point with the session's hooks, when it has any. */
function hookContext(options: TurnOptions): TurnHookContext | undefined {
  if (!options.hooks || options.hooks.size === 0) return undefined;
  return { hooks: options.hooks, turn: options.turn, signal: options.signal, root: options.toolContext.root, emit: options.emit };
}

/** Runs one call through the executor (or `send`), walking its state; never throws. */
async function runCall(call: ToolCall, options: TurnOptions, records: ToolCallRecord[], hooked: TurnHookContext | undefined, send?: (options: RequestOptions<ToolDelta>) => Promise<ToolResult>): Promise<ToolResult> {
  const { emit, turn } = options;
  let state: ToolCallState = pendingCall(call);
  const change = (next: ToolCallChange) => {
    const previous = state.status;
    state = transition(state, next);
    emit({ type: 'tool-call', turn, state, previous });
  };
  emit({ type: 'tool-call', turn, state });
  // A call may write: an interrupt that came since the reply is seen first (the call is then not run).
  await pollTurn();
  const skipped = notRunResult(call, options.signal) ?? (hooked?.stopped ? stoppedResult(call, hooked) : undefined);
  if (skipped) {
    change({ type: 'finish', result: skipped });
    record(records, call, skipped);
    return skipped;
  }
  change({ type: 'start' });
  const unwatch = options.watchApprovals?.((phase) => {
    if (phase === 'ask' && state.status === 'running') change({ type: 'ask-approval' });
    else if (phase === 'answered' && state.status === 'awaiting-approval') change({ type: 'approval-answered' });
  });
  let result: ToolResult;
  const pre: PreCallVerdict = hooked ? await beforeCall(hooked, call) : {};
  // SPEC §16: what a tool returns reaches the model, the transcript and the screen only through
  // here, with every secret reika knows replaced by [redacted] (live output too).
  const redactor = redactorFor(options.toolContext.settings.secrets);
  const live = new Map<ToolDelta['stream'], ReturnType<Redactor['stream']>>();
  const show = (stream: ToolDelta['stream'], text: string) => {
    if (text) emit({ type: 'tool-output', turn, callId: call.id, stream, text });
  };
  if (pre.blocked) {
    // A PreToolUse hook blocked it: the call does not run, the model gets the hook's reason.
    result = pre.blocked;
    unwatch?.();
  } else {
    // An edit or write: its language server reads the file first, and says afterwards what broke.
    const edited = options.diagnostics && !send && options.route?.(call.name) === undefined ? editedPath(call, options.toolContext.root) : undefined;
    if (edited) await options.diagnostics!.before(edited);
    try {
      const context: ToolContext = { ...options.toolContext, ...(pre.approved !== undefined ? { hookApproved: pre.approved } : {}), ...(pre.asked !== undefined ? { hookAsked: pre.asked } : {}) };
      const request: ToolExecutorRequest = { type: 'run', callId: call.id, name: call.name, args: call.arguments, context };
      const requestOptions: RequestOptions<ToolDelta> = {
        scope: options.scope,
        onDelta: (delta) => {
          let redacting = live.get(delta.stream);
          if (!redacting) live.set(delta.stream, (redacting = redactor.stream()));
          show(delta.stream, redacting.push(delta.text));
        },
      };
      result = await (send ? send(requestOptions) : client(options.router, options.route?.(call.name) ?? TOOL_EXECUTOR).request(request, requestOptions));
      if (edited) result = await withDiagnostics(result, call, edited, options.diagnostics!, options.signal);
    } catch (error) {
      result =
        options.signal.aborted || isCancelled(error)
          ? notRun(call, 'cancelled', 'cancelled: the turn was aborted')
          : { ...notRun(call, 'error', await crashReport(call, options.toolContext.root, error)), ...(send === undefined && executorGone(error, options.route?.(call.name)) ? { errorCode: EXECUTOR_GONE } : {}) };
    } finally {
      unwatch?.();
    }
  }
  for (const [stream, redacting] of live) show(stream, redacting.end());
  result = redacted(result, redactor);
  if (hooked && !pre.blocked) result = await afterCall(hooked, call, result);
  if (state.status === 'awaiting-approval') change({ type: 'approval-answered' });
  change({ type: 'finish', result });
  record(records, call, result);
  return result;
}

/** The result with every secret form replaced (summary, payload and the diff shown to the user). */
function redacted(result: ToolResult, redactor: Redactor): ToolResult {
  if (redactor.empty) return result;
  const diff = result.meta?.diff;
  return {
    ...result,
    summary: redactor.redact(result.summary),
    payload: redactor.redact(result.payload),
    ...(diff !== undefined ? { meta: { ...result.meta, diff: redactor.redact(diff) } } : {}),
  };
}

/** The result of a call that must not run: the turn was aborted, or its arguments were broken JSON. */
function notRunResult(call: ToolCall, signal: AbortSignal): ToolResult | undefined {
  if (signal.aborted) return notRun(call, 'cancelled', 'not run: the turn was aborted');
  if (call.rawArguments === undefined) return undefined;
  // Broken JSON (often a reply cut by max_tokens): running it with {} would only confuse the model.
  const raw = call.rawArguments;
  return {
    ...notRun(call, 'error', `${call.name} not run: its arguments were not valid JSON (${raw.length} characters, possibly cut off). Send the call again with complete JSON arguments; split a long write into smaller steps.`),
    payload: raw.length > 200 ? `${raw.slice(0, 200)}…` : raw,
    errorCode: 'BAD_ARGUMENTS_JSON',
  };
}

function record(records: ToolCallRecord[], call: ToolCall, result: ToolResult): void {
  records.push({ id: call.id, name: call.name, arguments: call.arguments, status: result.status, summary: result.summary });
}

/** The code of a call that failed because the tool executor is down for good. */
const EXECUTOR_GONE = 'REIKA_ERR_ACTOR_FAILED';

/** The supervisor stopped restarting the tool executor (or it never came up); an MCP server's actor does not count. */
function executorGone(error: unknown, route: ActorAddress<ToolExecutorProtocol> | undefined): boolean {
  return route === undefined && ReikaError.isInstance(error) && error.code === EXECUTOR_GONE;
}

/** A call that failed outside its tool: the error, and for an edit or write cut off by a crash of the executor, what is on disk now. */
async function crashReport(call: ToolCall, root: string, error: unknown): Promise<string> {
  const failed = `${call.name} failed: ${describe(error).message}`;
  if (!(ReikaError.isInstance(error) && error.code === 'REIKA_ERR_ACTOR_CRASHED')) return failed;
  const disk = await diskAfterCrash(call.name, call.arguments, root).catch(() => undefined);
  return disk ? `${failed.replace(/\.?$/, '.')} ${disk}` : failed;
}

function notRun(call: ToolCall, status: 'cancelled' | 'error', summary: string): ToolResult {
  return { callId: call.id, name: call.name, status, summary, payload: '' };
}

/** A thrown error as one sentence with a stable code. */
export function describe(error: unknown): { code: string; message: string } {
  if (ReikaError.isInstance(error)) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: 'REIKA_ERR_INTERNAL', message: error.message };
  return { code: 'REIKA_ERR_INTERNAL', message: String(error) };
}
