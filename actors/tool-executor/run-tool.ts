import { isAbsolute } from 'node:path';
import { isCancelled } from '../../runtime/errors.js';
import { decide, type Ask } from './approvals.js';
import type { ExecutorTool } from './tools/define-tool.js';
import { FileLocks } from './files/file-locks.js';
import type { ToolExecutorRequest, ToolResult } from './protocol.js';
import { executorTools } from './registry.js';
import { ToolError } from './tools/tool-error.js';
import type { ToolEnv, ToolOutcome } from './tools/tool-env.js';
import type { PreparedCall } from './prepared.js';
import { lazy } from './lazy.js';
import { contextRules } from './rules/context-rules.js';
import { ruleSubjectOf } from './rules/rule-subject.js';
import { suggestRules } from './rules/suggest-rules.js';
import { describeRule } from './rules/describe-rule.js';
import { withHookAnswer } from './rules/hook-ruling.js';

const checkpoints = lazy(() => import('./safety/checkpoint-step.js'));

/** No payload is bigger than this, whatever a tool produced (bash keeps 64 KB itself). */
export const MAX_PAYLOAD_CHARS = 256 * 1024;
const MAX_SUMMARY_CHARS = 600;
/** Edits and writes of one file, one at a time (`ExecutorTool.exclusive`). */
const locks = new FileLocks();

/**
 * The one wrapper every call goes through: unknown tool and bad arguments become typed results,
 * read-only modes are enforced, changing actions are approved first, failures become `error`
 * results and an abort becomes `cancelled`. It never throws.
 */
export async function runTool(request: ToolExecutorRequest, env: ToolEnv, ask: Ask): Promise<ToolResult> {
  try {
    const name = request.name;
    if (typeof request.context?.root !== 'string' || !isAbsolute(request.context.root)) {
      throw new ToolError('INVALID_ARGS', `the call's context has no absolute project root (got ${JSON.stringify(request.context?.root)})`);
    }
    const tool = executorTools.get(name);
    if (!tool || (tool.runs !== 'executor' && !tool.modes[request.context.mode])) {
      const offered = executorTools.offered(request.context.mode).map((offer) => offer.name);
      throw new ToolError('UNKNOWN_TOOL', `there is no tool named "${name}"; the tools are ${offered.join(', ')}`);
    }
    if (tool.runs !== 'executor') throw new ToolError('UNKNOWN_TOOL', `${name} is not a tool the tool executor runs`);
    const args = checkCall(tool, request);
    const key = tool.exclusive?.(args, request.context.root);
    if (key === undefined) return await runChecked(tool, request, args, env, ask);
    return await locks.run(key, env.signal, () => runChecked(tool, request, args, env, ask));
  } catch (error) {
    return failed(request, error, env.signal);
  }
}

/** Refuses what the mode refuses, prepares, asks for approval when the action needs it, runs. */
async function runChecked(tool: ExecutorTool, request: ToolExecutorRequest, args: unknown, env: ToolEnv, ask: Ask): Promise<ToolResult> {
  const base = { callId: request.callId, name: request.name };
  const refused = await tool.modes[request.context.mode]?.refuse?.(args, request.context.root);
  if (refused) throw new ToolError('READ_ONLY_MODE', refused);
  // Permission rules (SPEC §17) first: a deny rule refuses before anything is prepared.
  const rules = contextRules(request.context);
  const subject = rules ? ruleSubjectOf(tool.name, args, request.context.root) : undefined;
  const ruled = withHookAnswer(subject ? rules!.check(subject) : undefined, request.context);
  if (ruled?.effect === 'deny') return declined(base, { note: `denied by the permission rule ${describeRule(ruled)}` });
  const prepared = await tool.prepare(args, env);
  let approved = request.context.approvals === 'bypass';
  // A tool that describes no action (read, grep…) is asked about only when an ask rule names it.
  const action = prepared.action ?? (ruled?.effect === 'ask' ? { tool: tool.name, ...(subject?.paths ? { path: subject.paths[0]! } : {}), reasons: [] } : undefined);
  if (action) {
    const suggest = () => suggestRules(subject ?? ruleSubjectOf(tool.name, args, request.context.root), request.context.root);
    const verdict = await decide(action, tool.approval, request.context.approvals, ask, env.signal, { match: ruled, suggest });
    if (!verdict.approved) return declined(base, verdict);
    // A person's yes, an allow rule or bypass: the command may use the network (SPEC §12).
    approved ||= verdict.asked === true || verdict.rule !== undefined;
  }
  if (env.signal.aborted) return { ...base, status: 'cancelled', summary: `${tool.name} was cancelled before it ran`, payload: '' };
  // Before a step that changes files (agent mode: plan's and subagents' steps only read), a checkpoint.
  const step = prepared.action && prepared.action.changesFiles !== false && tool.approval !== 'never' && request.context.mode === 'agent' ? await (await checkpoints()).checkpointBefore(env.root, env.settings, prepared.action.tool, prepared.action.command ?? prepared.action.path ?? '') : {};
  if (env.signal.aborted) return { ...base, status: 'cancelled', summary: `${tool.name} was cancelled before it ran`, payload: '' };
  // Last, the main thread's go-ahead: an interrupt it has not handled yet (its abort would come
  // after this step ran) stops the step here: without it, a write sent just before a SIGINT
  // landed after it (1 run in 27 under repeated interrupts), with the abort still on its way.
  if (prepared.action && env.clear && !(await env.clear())) return { ...base, status: 'cancelled', summary: `${tool.name} was cancelled before it ran`, payload: '' };
  const grant = { approved, ...(step.checkpoint && step.store ? { checkpoint: { store: step.store, checkpoint: step.checkpoint } } : {}) };
  let outcome = await prepared.run(grant);
  // SPEC §12: a command that failed for lack of the network it was not given is offered again with it.
  if (outcome.withoutNetwork && !approved && prepared.action && !env.signal.aborted) {
    const again = await withNetwork(prepared.action, outcome, request, ask, env.signal, () => suggestRules(subject ?? ruleSubjectOf(tool.name, args, request.context.root), request.context.root));
    if (again.kind === 'declined') return { ...base, status: 'declined', summary: again.summary, payload: clip(again.payload) };
    if (again.kind === 'failed') outcome = again.outcome;
    else {
      outcome = await prepared.run({ ...grant, approved: true });
      outcome.summary = `run again with the network: ${outcome.summary}`;
    }
  }
  if (step.note) outcome.summary += `; ${step.note}`;
  if (step.checkpoint) outcome.meta = { ...outcome.meta, checkpoint: step.checkpoint.n };
  return finish(base, outcome);
}

/**
 * Asks whether to run a command again with the network: yes → run it again; a person's no → the
 * failure stands as an error that says so (never a ✓); nobody to ask (headless) → declined.
 */
async function withNetwork(
  action: NonNullable<PreparedCall['action']>,
  outcome: ToolOutcome,
  request: ToolExecutorRequest,
  ask: Ask,
  signal: AbortSignal,
  suggest: () => string[],
): Promise<{ kind: 'rerun' } | { kind: 'failed'; outcome: ToolOutcome } | { kind: 'declined'; summary: string; payload: string }> {
  const failed = outcome.summary.split(';')[0]!;
  const question = { tool: action.tool, ...(action.command !== undefined ? { command: action.command } : {}), reasons: [`it failed without the network (${failed}; the sandbox gives it only to approved commands): run it again with the network?`] };
  const verdict = await decide(question, 'ask', 'off', ask, signal, { suggest });
  if (verdict.approved) return { kind: 'rerun' };
  const why = `it failed without the network (${failed}), and running it again with the network was declined`;
  if (verdict.unattended) return { kind: 'declined', summary: oneLine(`declined: ${why}: nobody can approve it here`), payload: `${outcome.payload}\n[reika: ${why}: ${verdict.note}]` };
  return { kind: 'failed', outcome: { ...outcome, status: 'error', errorCode: 'NO_NETWORK', summary: `${outcome.summary}; not run again with the network: ${verdict.note}`, payload: `${outcome.payload}\n[reika: ${why}: ${verdict.note}]` } };
}

function declined(base: { callId: string; name: string }, verdict: { note: string }): ToolResult {
  const summary = /^declined\b/i.test(verdict.note) ? verdict.note : `declined: ${verdict.note}`;
  return { ...base, status: 'declined', summary: oneLine(summary), payload: `Not done: ${verdict.note}` };
}

/** A thrown failure as a result: a ToolError's code, a cancellation, or INTERNAL. */
function failed(request: ToolExecutorRequest, error: unknown, signal: AbortSignal): ToolResult {
  const base = { callId: request.callId, name: request.name };
  if (ToolError.isInstance(error)) {
    return { ...base, status: 'error', errorCode: error.code, summary: oneLine(error.message), payload: clip(error.payload) };
  }
  if (signal.aborted || isCancelled(error)) return { ...base, status: 'cancelled', summary: `${request.name} was cancelled${isCancelled(error) ? ` (${(error as Error).message})` : ''}`, payload: '' };
  const message = error instanceof Error ? error.message : String(error);
  return { ...base, status: 'error', errorCode: 'INTERNAL', summary: oneLine(`${request.name} failed: ${message}`), payload: '' };
}

/** The checked arguments, once the mode offers the tool; throws INVALID_ARGS or READ_ONLY_MODE. */
function checkCall(tool: ExecutorTool, request: ToolExecutorRequest): unknown {
  const { mode } = request.context;
  if (!tool.modes[mode]) throw new ToolError('READ_ONLY_MODE', `${tool.name} is not available in ${mode} mode, which is read-only`);
  return tool.validate(request.args);
}

function finish(base: { callId: string; name: string }, outcome: ToolOutcome): ToolResult {
  return {
    ...base,
    status: outcome.status ?? 'done',
    summary: oneLine(outcome.summary),
    payload: clip(outcome.payload),
    ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}),
    ...(outcome.meta ? { meta: outcome.meta } : {}),
  };
}

function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ');
  return line.length > MAX_SUMMARY_CHARS ? `${line.slice(0, MAX_SUMMARY_CHARS - 1)}…` : line;
}

function clip(payload: string): string {
  if (payload.length <= MAX_PAYLOAD_CHARS) return payload;
  return `${payload.slice(0, MAX_PAYLOAD_CHARS)}\n… [${(payload.length - MAX_PAYLOAD_CHARS).toLocaleString('en-US')} more characters cut]`;
}
