import type { ToolCallRecord, TurnResult } from '../agent/events.js';
import type { ToolResult, ToolResultCode } from '../tool-executor/protocol.js';
import { notCoveredSection, type Coverage } from './coverage.js';
import type { SubagentReport } from './protocol.js';
import { isReikaErrorCode } from '../../runtime/errors.js';

// A subagent's report, whatever happened: its final answer, or (stopped, errored, aborted) what
// it found so far, always closed by the "Not covered" list. As a tool result for the parent,
// the `summary` holds a header and the report's first {@link KEPT_CHARS} characters, so an aged
// report keeps its beginning instead of shrinking to one line; the `payload` holds the rest.

/** Characters of a report kept when it ages in the parent's context (SPEC §6). */
export const KEPT_CHARS = 2_400;

/** Builds the report from the subagent's turn and its coverage. */
export function buildReport(result: TurnResult, cover: Coverage): SubagentReport {
  const parts: string[] = [];
  const answer = result.answer.trim();
  if (result.status === 'answered') {
    parts.push(answer);
  } else {
    parts.push(`[the subagent stopped before its report: ${stopReason(result)}; what it found so far follows]`);
    if (answer !== '') parts.push(answer);
    const calls = findings(result.toolCalls);
    if (calls !== '') parts.push(calls);
  }
  parts.push(notCoveredSection(cover));
  return {
    status: result.status,
    report: parts.join('\n\n'),
    read: cover.read,
    notCovered: cover.notCovered,
    requests: result.requests,
    usage: result.usage,
    ...(result.error ? { error: result.error } : {}),
  };
}

/** The tool calls a stopped subagent made, one line each, as its findings so far. */
export function findings(calls: readonly ToolCallRecord[]): string {
  if (calls.length === 0) return '';
  return ['Tool calls it made:', ...calls.map((call) => `- ${callLine(call)}`)].join('\n');
}

/** One line for a finished call: `read src/a.ts — <summary>`. */
export function callLine(call: Pick<ToolCallRecord, 'name' | 'arguments' | 'summary' | 'status'>): string {
  const target = call.arguments.path ?? call.arguments.pattern;
  const head = typeof target === 'string' ? `${call.name} ${target.split('\n')[0]}` : call.name;
  const summary = call.summary.split('\n')[0] ?? '';
  return `${head}${call.status === 'done' ? '' : ` (${call.status})`} — ${summary}`;
}

/** The parent's tool result for one subagent's report. */
export function reportResult(callId: string, report: SubagentReport): ToolResult {
  const header = `subagent report (${headerFacts(report)}):`;
  const { head, tail } = splitReport(report.report);
  return {
    callId,
    name: 'subagent',
    status: report.status === 'aborted' ? 'cancelled' : report.status === 'error' ? 'error' : 'done',
    summary: `${header}\n${head}`,
    payload: tail,
    ...(report.status === 'answered' ? {} : { errorCode: reportCode(report) }),
  };
}

/** The report's first {@link KEPT_CHARS} characters (cut at a line end when one is near) and the rest. */
export function splitReport(report: string): { head: string; tail: string } {
  if (report.length <= KEPT_CHARS) return { head: report, tail: '' };
  let cut = report.lastIndexOf('\n', KEPT_CHARS);
  if (cut < KEPT_CHARS * 0.75) cut = KEPT_CHARS;
  return { head: report.slice(0, cut).trimEnd(), tail: report.slice(cut).replace(/^\n+/, '') };
}

function headerFacts(report: SubagentReport): string {
  const facts = [report.status === 'answered' ? 'done' : report.status === 'max-turns' ? 'stopped at its budget' : report.status, `${report.read.length} file${report.read.length === 1 ? '' : 's'} read`];
  if (report.notCovered.length > 0) {
    const names = report.notCovered.slice(0, 8).join(', ');
    facts.push(`not covered: ${names}${report.notCovered.length > 8 ? `, +${report.notCovered.length - 8} more` : ''}`);
  }
  return facts.join('; ');
}

function stopReason(result: TurnResult): string {
  switch (result.status) {
    case 'aborted':
      return 'the turn was aborted';
    case 'max-turns':
      return `it used its budget of ${result.requests} requests`;
    default:
      return result.error?.message ?? result.status;
  }
}

/** The code of a report that did not answer: its error's, when reika knows it, else why it stopped. */
function reportCode(report: SubagentReport): ToolResultCode {
  const code = report.error?.code;
  if (isReikaErrorCode(code)) return code;
  return report.status === 'aborted' ? 'SUBAGENT_ABORTED' : 'SUBAGENT_STOPPED';
}
