import { defineActor } from '../../runtime/actor.js';
import type { AgentEvent } from '../agent/events.js';
import { runTurn } from '../agent/turn.js';
import { ContextManager } from '../context/context-manager.js';
import { Hooks } from '../hooks/hooks.js';
import { coverage, namedFiles } from './coverage.js';
import type { SubagentDelta, SubagentProtocol, SubagentRequest } from './protocol.js';
import { buildReport, callLine } from './report.js';

// One subagent: a worker-thread actor (`subagent/N`) that the dispatcher spawns for one call,
// asks once and stops. It runs the same agent loop as the main agent in `subagent` mode, with a
// context of its own, read-only tools and a request budget whose last request is forced to
// report. Whatever happens (answer, budget, error, abort) it replies with a report.

/** Nudge before the last budgeted request; that request also withholds tools (tool_choice none). */
export const REPORT_NOW =
  'This is your last request: no more tool calls. Write your report now from what you found: the facts, with file paths and line numbers, and what you could not check.';

export default defineActor<SubagentProtocol>({
  async handle(request, context) {
    const { brief } = request;
    const tools = brief.tools;
    const named = namedFiles(brief.root, request.task, request.files);
    const given = brief.hooks;
    const hooks = given && given.entries.length > 0 ? new Hooks(given.entries, () => ({ sessionId: given.sessionId, cwd: brief.root, ...(given.transcriptPath ? { transcriptPath: given.transcriptPath } : {}) })) : undefined;
    const result = await runTurn(taskPrompt(request), {
      router: context,
      turn: request.callId,
      scope: context.scope ?? `subagent-${context.id}`,
      signal: context.signal,
      endpoint: brief.endpoint,
      tools,
      toolContext: { root: brief.root, approvals: brief.approvals, mode: 'subagent', settings: brief.toolSettings, ...(brief.permissions ? { permissions: brief.permissions } : {}) },
      context: new ContextManager({ system: brief.system, tools, window: brief.window, maxTokens: brief.maxTokens }),
      maxRequests: Math.max(1, brief.maxTurns),
      lastRequestNote: REPORT_NOW,
      lastRequestWithoutTools: true,
      emit: (event) => progress(event, (delta) => context.emit(delta)),
      ...(hooks ? { hooks, stopEvent: 'SubagentStop' as const } : {}),
    });
    return buildReport(result, coverage(brief.root, named, result.toolCalls));
  },
});

/** The subagent's one user message: the task, and the files it must cover. */
export function taskPrompt(request: Pick<SubagentRequest, 'task' | 'files'>): string {
  if (request.files.length === 0) return request.task;
  return `${request.task}\n\nFiles to read for this task:\n${request.files.map((file) => `- ${file}`).join('\n')}`;
}

/** One line per finished tool call, streamed to the parent (its UI shows them as the call's output). */
function progress(event: AgentEvent, send: (delta: SubagentDelta) => void): void {
  if (event.type !== 'tool-call') return;
  const { state } = event;
  if (state.status !== 'done' && state.status !== 'error' && state.status !== 'cancelled') return;
  const { name, arguments: args } = state.call;
  const text = `${callLine({ name, arguments: args, summary: state.result.summary, status: state.result.status })}\n`;
  const read = name === 'read' && state.result.status === 'done' && typeof args.path === 'string' ? args.path : undefined;
  send({ type: 'output', stream: 'stdout', text, ...(read !== undefined ? { read } : {}) });
}
