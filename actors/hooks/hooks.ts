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
  /** A PreToolUse hook approved the call (JSON `approve` / `allow`): its reason. */
  approve?: string;
  /** What the hooks printed (exit 0, not JSON), for UserPromptSubmit the model's extra context. */
  output: string[];
  /** One line per hook that failed, timed out or could not start. */
  problems: string[];
}

/**
 * The hooks of a session (SPEC §17): the commands the user's (and a trusted project's) settings
 * attach to an event, run together when it happens. Each gets one JSON object on stdin:
 * `hook_event_name`, `session_id`, `transcript_path`, `cwd`, plus the event's own fields
 * (`tool_name`, `tool_input`, `tool_response`, `prompt`…). What they answer:
 * - exit 0: go on (stdout is shown; a JSON object on stdout may decide, below);
 * - exit 2: block, with stderr as the reason (PreToolUse: the call does not run and the model gets
 *   the reason as its result; UserPromptSubmit: the prompt is not sent; Stop: the model goes on
 *   with the reason as its instruction; PostToolUse: the model gets the reason with the result);
 * - JSON on stdout, `{"decision": "block" | "approve", "reason": "…"}` (or Claude Code's
 *   `hookSpecificOutput.permissionDecision` `deny` / `allow`), decides the same way;
 * - any other exit, a timeout, a command that cannot start: one line for the user, and reika goes on.
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
    const outcome: HookOutcome = { output: [], problems: [] };
    const chosen = this.entries.filter((entry) => entry.event === event && hookMatches(entry, options.tool));
    if (chosen.length === 0) return outcome;
    const facts = this.facts();
    const input = { hook_event_name: event, session_id: facts.sessionId, transcript_path: facts.transcriptPath ?? '', cwd: facts.cwd, ...fields };
    const runs = await Promise.all(chosen.map((entry) => runHook(entry.command, input, { cwd: facts.cwd, timeoutMs: entry.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) })));
    const blocks: string[] = [];
    const approvals: string[] = [];
    runs.forEach((run, i) => {
      const entry = chosen[i]!;
      const answer = judge(run);
      if (answer.kind === 'block') blocks.push(answer.reason || `a ${event} hook (${short(entry.command)}) blocked it`);
      else if (answer.kind === 'approve') approvals.push(answer.reason || `a ${event} hook approved it`);
      else if (answer.kind === 'failed') outcome.problems.push(`${event} hook ${short(entry.command)} ${answer.why}`);
      else if (answer.kind === 'go' && answer.output) outcome.output.push(answer.output);
    });
    if (blocks.length > 0) outcome.block = blocks.join('\n');
    else if (approvals.length > 0) outcome.approve = approvals.join('; ');
    return outcome;
  }
}

type Answer = { kind: 'go'; output?: string } | { kind: 'block' | 'approve'; reason: string } | { kind: 'failed'; why: string };

function judge(run: HookRun): Answer {
  if (run.ended?.why === 'timeout') return { kind: 'failed', why: 'ran past its timeout and was killed' };
  if (run.ended?.why === 'aborted') return { kind: 'failed', why: 'was stopped: the turn was interrupted' };
  if (run.ended?.why === 'spawn') return { kind: 'failed', why: `could not start (${run.ended.detail ?? 'unknown error'})` };
  if (run.code === 2) return { kind: 'block', reason: run.stderr.trim() };
  if (run.code !== 0) return { kind: 'failed', why: `failed (exit ${run.code ?? 'by a signal'})${firstLine(run.stderr) ? `: ${firstLine(run.stderr)}` : ''}` };
  const text = run.stdout.trim();
  if (text.startsWith('{')) {
    try {
      const json = JSON.parse(text) as { decision?: unknown; reason?: unknown; hookSpecificOutput?: { permissionDecision?: unknown; permissionDecisionReason?: unknown } };
      const reason = typeof json.reason === 'string' ? json.reason : typeof json.hookSpecificOutput?.permissionDecisionReason === 'string' ? json.hookSpecificOutput.permissionDecisionReason : '';
      const decision = json.hookSpecificOutput?.permissionDecision ?? json.decision;
      if (decision === 'block' || decision === 'deny') return { kind: 'block', reason };
      if (decision === 'approve' || decision === 'allow') return { kind: 'approve', reason };
      return { kind: 'go' };
    } catch {
      // Not JSON after all: plain output.
    }
  }
  return text === '' ? { kind: 'go' } : { kind: 'go', output: text };
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function short(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  return `\`${line.length > 60 ? `${line.slice(0, 59)}…` : line}\``;
}
