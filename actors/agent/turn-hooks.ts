import type { Hooks, HookOutcome } from '../hooks/hooks.js';
import type { HookEvent } from '../hooks/hook-config.js';
import type { ToolCall } from '../model-io/protocol.js';
import type { ToolResult } from '../tool-executor/protocol.js';
import type { AgentEvent } from './events.js';
import { resolveToolPath } from '../tool-executor/files/paths.js';

// Where a turn meets the session's hooks (SPEC §17): before and after each tool call, and when the
// model has answered (`Stop`, or `SubagentStop` for a subagent's turn). What hooks print or how
// they fail is told as notices; what they decide comes back to the loop.

export interface TurnHookContext {
  hooks: Hooks;
  turn: string;
  signal: AbortSignal;
  /** The project root: file paths in a hook's `tool_input` are absolute, as Claude Code's are. */
  root: string;
  emit(event: AgentEvent): void;
  /**
   * Set when a hook answered `continue: false`: the turn ends once the step under way is done
   * (the model is not asked again), with this as its reason. One per turn: the first stop wins.
   */
  stopped?: { event: HookEvent; reason: string };
}

/** What a PreToolUse hook decided: a result when it blocked the call, else its approval or its wish that a person confirm. */
export interface PreCallVerdict {
  blocked?: ToolResult;
  approved?: string;
  asked?: string;
}

/** PreToolUse: a result when a hook blocks the call (the model gets the reason), else the hook's approval or ask if any. */
export async function beforeCall(context: TurnHookContext, call: ToolCall): Promise<PreCallVerdict> {
  if (!context.hooks.has('PreToolUse', call.name)) return {};
  const outcome = await context.hooks.run('PreToolUse', { tool_name: call.name, tool_input: hookToolInput(call, context.root) }, { tool: call.name, signal: context.signal });
  tell(context, outcome);
  if (outcome.stop !== undefined) {
    // `continue: false` wins over any decision: the call is not run, and the turn ends after this step.
    stop(context, 'PreToolUse', outcome.stop);
    return { blocked: stoppedResult(call, context) };
  }
  if (outcome.block !== undefined) {
    const reason = outcome.block.trim() || 'a PreToolUse hook blocked it';
    return { blocked: { callId: call.id, name: call.name, status: 'declined', summary: oneLine(`blocked by a PreToolUse hook: ${reason}`), payload: reason } };
  }
  if (outcome.ask !== undefined) return { asked: outcome.ask };
  return outcome.approve !== undefined ? { approved: outcome.approve } : {};
}

/** PostToolUse: the result, with what a blocking hook said, or the context hooks added, for the model. */
export async function afterCall(context: TurnHookContext, call: ToolCall, result: ToolResult): Promise<ToolResult> {
  if (!context.hooks.has('PostToolUse', call.name) || result.status === 'cancelled') return result;
  const response = { status: result.status, summary: result.summary, output: result.payload, ...(result.errorCode ? { error_code: result.errorCode } : {}) };
  const outcome = await context.hooks.run('PostToolUse', { tool_name: call.name, tool_input: hookToolInput(call, context.root), tool_response: response }, { tool: call.name, signal: context.signal });
  tell(context, outcome);
  if (outcome.stop !== undefined) stop(context, 'PostToolUse', outcome.stop);
  // Context is not an objection: the summary the user reads stays as it was.
  const added = outcome.context.length > 0 ? { ...result, payload: `${result.payload}\n[PostToolUse hook context: ${outcome.context.join('\n')}]` } : result;
  if (outcome.block === undefined) return added;
  const said = outcome.block.trim() || 'a PostToolUse hook objected';
  return { ...added, summary: oneLine(`${result.summary}; a PostToolUse hook said: ${said}`), payload: `${added.payload}\n[PostToolUse hook: ${said}]` };
}

/** Stop / SubagentStop: the instruction to go on with when a hook blocks the end, else undefined. */
export async function atStop(context: TurnHookContext, event: 'Stop' | 'SubagentStop', active: boolean): Promise<string | undefined> {
  if (!context.hooks.has(event)) return undefined;
  const outcome = await context.hooks.run(event, { stop_hook_active: active }, { signal: context.signal });
  tell(context, outcome);
  // `continue: false` wins over a block: the turn ends as it was about to, its reason told.
  if (outcome.stop !== undefined) return void tellStop(context, event, outcome.stop);
  if (outcome.block === undefined || context.signal.aborted) return undefined;
  return outcome.block.trim() || `a ${event} hook asked you to go on`;
}

/** PreCompact: run when the context is compacted (automatically before a request, or by /compact). */
export async function atCompaction(context: TurnHookContext, trigger: 'auto' | 'manual'): Promise<void> {
  if (!context.hooks.has('PreCompact')) return;
  const outcome = await context.hooks.run('PreCompact', { trigger, custom_instructions: '' }, { signal: context.signal });
  tell(context, outcome);
  if (outcome.stop === undefined) return;
  // Before a request, the turn can end; a /compact between turns has no turn to end.
  if (trigger === 'auto') stop(context, 'PreCompact', outcome.stop);
  else tellStop(context, 'PreCompact', outcome.stop);
}

/** A hook's messages, output and failures, one notice each. */
export function tell(context: Pick<TurnHookContext, 'turn' | 'emit'>, outcome: HookOutcome): void {
  for (const line of outcome.problems) context.emit({ type: 'notice', turn: context.turn, message: line });
  for (const text of [...outcome.messages, ...outcome.output]) context.emit({ type: 'notice', turn: context.turn, message: `hook: ${oneLine(text)}` });
}

/** A `continue: false` where there is no turn to end (or it ends anyway): its reason as a notice. */
export function tellStop(context: Pick<TurnHookContext, 'turn' | 'emit'>, event: HookEvent, reason: string): void {
  context.emit({ type: 'notice', turn: context.turn, message: oneLine(`a ${event} hook said stop: ${reason}`) });
}

/** The turn's end, when a hook stopped it: its error, one sentence for the user. */
export function stoppedError(stopped: NonNullable<TurnHookContext['stopped']>): { code: 'REIKA_ERR_HOOK_STOPPED'; message: string } {
  return { code: 'REIKA_ERR_HOOK_STOPPED', message: oneLine(`a ${stopped.event} hook stopped the turn: ${stopped.reason}`) };
}

/** The result of a call not run because a hook stopped the turn. */
export function stoppedResult(call: ToolCall, context: TurnHookContext): ToolResult {
  const why = context.stopped ? stoppedError(context.stopped).message : 'a hook stopped the turn';
  return { callId: call.id, name: call.name, status: 'cancelled', summary: `not run: ${why}`, payload: '' };
}

function stop(context: TurnHookContext, event: HookEvent, reason: string): void {
  context.stopped ??= { event, reason };
}

/** reika's file tools take `path`; hooks written for Claude Code read `file_path` (absolute), so they get both. */
const FILE_TOOLS: ReadonlySet<string> = new Set(['read', 'edit', 'write']);

/** A call's arguments as a hook's `tool_input`: as the model sent them, plus `file_path` for the file tools. */
export function hookToolInput(call: ToolCall, root: string): Record<string, unknown> {
  const path = call.arguments.path;
  if (!FILE_TOOLS.has(call.name) || typeof path !== 'string' || path.trim() === '' || 'file_path' in call.arguments) return call.arguments;
  return { ...call.arguments, file_path: resolveToolPath(root, path) };
}

function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > 600 ? `${line.slice(0, 599)}…` : line;
}
