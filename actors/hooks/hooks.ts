import { hookMatches, type HookEntry, type HookEvent } from './hook-config.js';
import { runHook, type HookRun } from './run-hook.js';

/** What the session tells every hook. */
export interface HookSessionFacts {
  sessionId: string;
  /** The transcript file, when the session records one. */
  transcriptPath?: string;
  /** The project folder: the hooks' working folder. */
  cwd: string;
}

export interface HookOutcome {
  /** A hook blocked: its reason (stderr of exit 2, or the JSON `reason`). */
  block?: string;
  /** A PreToolUse hook wants a person to confirm the call (JSON `permissionDecision: "ask"`): its reason. */
  ask?: string;
  /** A PreToolUse hook approved the call (JSON `approve` / `allow`): its reason. */
  approve?: string;
  /** A hook answered `continue: false`: its `stopReason` (or a sentence naming the hook). */
  stop?: string;
  /** What the user is shown of the hooks: plain output (exit 0, not JSON), and the context JSON answers add unless they say `suppressOutput`. */
  output: string[];
  /** For the model: `additionalContext`, and for UserPromptSubmit and SessionStart plain output too. */
  context: string[];
  /** `systemMessage`s: for the user. */
  messages: string[];
  /** One line per hook that failed, timed out or could not start. */
  problems: string[];
}

/** Events whose plain output is context for the model, not only something to show (as in Claude Code). */
const OUTPUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'SessionStart']);

/**
 * The hooks of a session (SPEC §17): the commands the user's (and a trusted project's) settings
 * attach to an event, run together when it happens. Each gets one JSON object on stdin:
 * `hook_event_name`, `session_id`, `transcript_path`, `cwd`, plus the event's own fields
 * (`tool_name`, `tool_input`, `tool_response`, `prompt`…). What they answer:
 * - exit 0: go on (stdout is shown; for UserPromptSubmit and SessionStart it is the model's
 *   context too; a JSON object on stdout may decide, below);
 * - exit 2: block, with stderr as the reason (PreToolUse: the call does not run and the model gets
 *   the reason as its result; UserPromptSubmit: the prompt is not sent; Stop: the model goes on
 *   with the reason as its instruction; PostToolUse: the model gets the reason with the result);
 * - any other exit, a timeout, a command that cannot start: one line for the user, and reika goes on.
 *
 * A JSON answer (exit 0, stdout one JSON object; anything else on stdout is plain output) is read
 * as Claude Code reads it:
 * - `decision` `block` / `approve`, or `hookSpecificOutput.permissionDecision` `deny` / `ask` /
 *   `allow` (with `permissionDecisionReason`), decides as above; `ask` makes a person confirm the
 *   call whatever the approvals mode (headless: declined, as every asked call is);
 * - `hookSpecificOutput.additionalContext` is context for the model (UserPromptSubmit: with the
 *   prompt; SessionStart: with the session's next prompt, the system prompt staying frozen;
 *   PostToolUse: with the tool's result); it is shown to the user too unless `suppressOutput`;
 * - `systemMessage` is shown to the user;
 * - `continue: false` ends the turn after the hook (the model is not asked again), its
 *   `stopReason` the turn's end reason; it wins over every decision.
 *
 * For a tool call, what decides is, strongest first: a hook's `continue: false` or deny (exit 2,
 * `block`, `deny`: the call is not sent, so a deny rule naming it is not reached), a deny rule, a
 * hook's `ask`, an ask rule, an allow rule, a hook's allow, the approvals mode. So a hook may
 * tighten what the rules allow but not loosen what they deny or ask about.
 */
export class Hooks {
  constructor(
    private readonly entries: readonly HookEntry[],
    private readonly facts: () => HookSessionFacts,
  ) {}

  /** True when some hook listens to `event` (for `tool`, when given). */
  has(event: HookEvent, tool?: string): boolean {
    return this.entries.some((entry) => entry.event === event && hookMatches(entry, tool));
  }

  get size(): number {
    return this.entries.length;
  }

  /** Runs the hooks of `event` (those whose matcher takes `tool`) side by side; never throws. */
  async run(event: HookEvent, fields: Record<string, unknown> = {}, options: { tool?: string; signal?: AbortSignal } = {}): Promise<HookOutcome> {
    const outcome: HookOutcome = { output: [], context: [], messages: [], problems: [] };
    const chosen = this.entries.filter((entry) => entry.event === event && hookMatches(entry, options.tool));
    if (chosen.length === 0) return outcome;
    const facts = this.facts();
    const input = { hook_event_name: event, session_id: facts.sessionId, transcript_path: facts.transcriptPath ?? '', cwd: facts.cwd, ...fields };
    const runs = await Promise.all(chosen.map((entry) => runHook(entry.command, input, { cwd: facts.cwd, timeoutMs: entry.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) })));
    const said = { block: [] as string[], ask: [] as string[], approve: [] as string[], stop: [] as string[] };
    runs.forEach((run, i) => {
      const entry = chosen[i]!;
      const answer = judge(run, OUTPUT_IS_CONTEXT.has(event));
      if (answer.kind === 'failed') return void outcome.problems.push(`${event} hook ${short(entry.command)} ${answer.why}`);
      if (answer.kind === 'block') said.block.push(answer.reason || `a ${event} hook (${short(entry.command)}) blocked it`);
      else if (answer.kind === 'ask') said.ask.push(answer.reason || `a ${event} hook (${short(entry.command)}) asks first`);
      else if (answer.kind === 'approve') said.approve.push(answer.reason || `a ${event} hook approved it`);
      if (answer.stop !== undefined) said.stop.push(answer.stop || `a ${event} hook (${short(entry.command)}) stopped it`);
      if (answer.shown) outcome.output.push(answer.shown);
      if (answer.context) outcome.context.push(answer.context);
      if (answer.message) outcome.messages.push(answer.message);
    });
    // One refusal is enough; then one request for a person; only then an approval counts.
    if (said.block.length > 0) outcome.block = said.block.join('\n');
    else if (said.ask.length > 0) outcome.ask = said.ask.join('; ');
    else if (said.approve.length > 0) outcome.approve = said.approve.join('; ');
    if (said.stop.length > 0) outcome.stop = said.stop.join('; ');
    return outcome;
  }
}

/** What one hook answered. */
type Answer =
  | ({ kind: 'go' } & Said)
  | ({ kind: 'block' | 'ask' | 'approve'; reason: string } & Said)
  | { kind: 'failed'; why: string };

/** What any answer may carry besides its decision. */
interface Said {
  /** Shown to the user. */
  shown?: string;
  /** For the model. */
  context?: string;
  /** `systemMessage`. */
  message?: string;
  /** `continue: false`: its `stopReason` ('' without one). */
  stop?: string;
}

function judge(run: HookRun, outputIsContext: boolean): Answer {
  if (run.ended?.why === 'timeout') return { kind: 'failed', why: 'ran past its timeout and was killed' };
  if (run.ended?.why === 'aborted') return { kind: 'failed', why: 'was stopped: the turn was interrupted' };
  if (run.ended?.why === 'spawn') return { kind: 'failed', why: `could not start (${run.ended.detail ?? 'unknown error'})` };
  if (run.code === 2) return { kind: 'block', reason: run.stderr.trim() };
  if (run.code !== 0) return { kind: 'failed', why: `failed (exit ${run.code ?? 'by a signal'})${firstLine(run.stderr) ? `: ${firstLine(run.stderr)}` : ''}` };
  const text = run.stdout.trim();
  const json = jsonAnswer(text);
  if (json) return json;
  if (text === '') return { kind: 'go' };
  return { kind: 'go', shown: text, ...(outputIsContext ? { context: text } : {}) };
}

/** A JSON answer in Claude Code's shape, or undefined when stdout is not one JSON object (then it is plain output). */
function jsonAnswer(text: string): Answer | undefined {
  if (!text.startsWith('{')) return undefined;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const specific = (typeof json.hookSpecificOutput === 'object' && json.hookSpecificOutput !== null ? json.hookSpecificOutput : {}) as Record<string, unknown>;
  const context = textOf(specific.additionalContext);
  const message = textOf(json.systemMessage);
  const said: Said = {
    ...(context ? { context, ...(json.suppressOutput === true ? {} : { shown: context }) } : {}),
    ...(message ? { message } : {}),
    ...(json.continue === false ? { stop: textOf(json.stopReason) ?? '' } : {}),
  };
  const reason = textOf(json.reason) ?? textOf(specific.permissionDecisionReason) ?? '';
  const decision = specific.permissionDecision ?? json.decision;
  if (decision === 'block' || decision === 'deny') return { kind: 'block', reason, ...said };
  if (decision === 'ask') return { kind: 'ask', reason, ...said };
  if (decision === 'approve' || decision === 'allow') return { kind: 'approve', reason, ...said };
  return { kind: 'go', ...said };
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function short(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  return `\`${line.length > 60 ? `${line.slice(0, 59)}…` : line}\``;
}
