import { isAbsolute, resolve } from 'node:path';
import type { ToolCall as AcpToolCall, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolCallUpdate, ToolKind } from '@agentclientprotocol/sdk';
import type { ToolCallState } from '../../actors/agent/tool-call-state.js';
import { longestBacktickRun } from '../../actors/backticks.js';
import type { ToolResult } from '../../actors/tool-executor/protocol.js';
import { toolTarget } from '../tui/tool-line.js';

// A tool call's life as the editor sees it (ACP `tool_call` / `tool_call_update`): the call's own
// id, a kind for the icon, a title, the files it touches (`locations`, absolute, with a line where
// one is known), the status (pending → in_progress → completed | failed) and, at the end, what it
// did: a `diff` for edit and write, the output as text for the rest. A declined or cancelled call
// is `failed`, its summary saying why.

/** The icon an editor shows for each of reika's tools; MCP tools and any other are `other`. */
const KINDS: Readonly<Record<string, ToolKind>> = {
  read: 'read',
  list: 'search',
  glob: 'search',
  grep: 'search',
  search: 'search',
  edit: 'edit',
  write: 'edit',
  bash: 'execute',
  fetch: 'fetch',
  subagent: 'think',
  todo: 'think',
};

export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? 'other';
}

/** `read src/a.ts`, `bash: npm test`, the way the terminal names a call. */
export function toolTitle(name: string, args: Record<string, unknown>): string {
  const target = toolTarget(name, args);
  if (target === '') return name;
  return name === 'bash' ? `bash: ${target}` : `${name} ${target}`;
}

/** The update that announces a call (its first state, `pending`). */
export function announceCall(state: ToolCallState, root: string): AcpToolCall {
  const { call } = state;
  const locations = callLocations(call.name, call.arguments, root);
  return {
    toolCallId: call.id,
    title: toolTitle(call.name, call.arguments),
    kind: toolKind(call.name),
    status: 'pending',
    rawInput: call.arguments,
    ...(locations.length > 0 ? { locations } : {}),
  };
}

/**
 * The update for a change of state, or undefined when the editor has nothing new to show (waiting
 * for approval is the permission request itself).
 */
export function callUpdate(state: ToolCallState, root: string): ToolCallUpdate | undefined {
  const { call } = state;
  switch (state.status) {
    case 'pending':
    case 'awaiting-approval':
      return undefined;
    case 'running':
      return { toolCallId: call.id, status: 'in_progress' };
    case 'done':
    case 'error':
    case 'cancelled': {
      const result = state.result;
      const status: ToolCallStatus = state.status === 'done' ? 'completed' : 'failed';
      const locations = resultLocations(call.name, call.arguments, result, root);
      return {
        toolCallId: call.id,
        status,
        content: resultContent(call.name, call.arguments, result, root),
        ...(locations.length > 0 ? { locations } : {}),
        rawOutput: { status: result.status, summary: result.summary, ...(result.errorCode ? { errorCode: result.errorCode } : {}) },
      };
    }
  }
}

/** Output of a running command, shown under the call while it runs (the tail of it). */
export function outputUpdate(callId: string, output: string): ToolCallUpdate {
  return { toolCallId: callId, content: [textContent(fenced(output))] };
}

function callLocations(name: string, args: Record<string, unknown>, root: string): ToolCallLocation[] {
  const path = typeof args.path === 'string' && args.path !== '' ? absolute(root, args.path) : undefined;
  if (!path) return [];
  if (name === 'read' && typeof args.offset === 'number') return [{ path, line: args.offset }];
  return [{ path }];
}

function resultLocations(name: string, args: Record<string, unknown>, result: ToolResult, root: string): ToolCallLocation[] {
  const path = result.meta?.path ?? (typeof args.path === 'string' && args.path !== '' ? absolute(root, args.path) : undefined);
  if (!path) return [];
  const line = name === 'edit' && result.meta?.diff ? changedLine(result.meta.diff) : name === 'read' && typeof args.offset === 'number' ? args.offset : name === 'write' ? 1 : undefined;
  return [{ path, ...(line !== undefined ? { line } : {}) }];
}

function resultContent(name: string, args: Record<string, unknown>, result: ToolResult, root: string): ToolCallContent[] {
  if (result.status === 'done' && (name === 'edit' || name === 'write')) {
    const path = result.meta?.path ?? absolute(root, String(args.path ?? ''));
    if (name === 'write' && typeof args.content === 'string') return [{ type: 'diff', path, oldText: null, newText: args.content }];
    if (name === 'edit') {
      const diffs = editPairs(args).map(({ oldText, newText }): ToolCallContent => ({ type: 'diff', path, oldText, newText }));
      if (diffs.length > 0) return diffs;
    }
  }
  const shown = result.payload !== '' && result.status !== 'declined' ? `${result.summary}\n\n${fenced(result.payload)}` : result.summary;
  return [textContent(shown)];
}

/** The replacements an edit made: `old_string`/`new_string`, or each of `edits` where the tool takes several. */
function editPairs(args: Record<string, unknown>): Array<{ oldText: string; newText: string }> {
  const pairs: Array<{ oldText: string; newText: string }> = [];
  const take = (value: Record<string, unknown>) => {
    if (typeof value.old_string === 'string' && typeof value.new_string === 'string') pairs.push({ oldText: value.old_string, newText: value.new_string });
  };
  take(args);
  if (Array.isArray(args.edits)) for (const edit of args.edits) if (edit && typeof edit === 'object') take(edit as Record<string, unknown>);
  return pairs;
}

/** The first changed line of a one-hunk unified diff: the hunk's start plus its leading context lines. */
export function changedLine(diff: string): number | undefined {
  const lines = diff.split('\n');
  const at = lines.findIndex((line) => line.startsWith('@@ '));
  const start = at >= 0 ? /^@@ -(\d+)/.exec(lines[at]!) : null;
  if (!start) return undefined;
  let line = Math.max(1, Number(start[1]));
  for (let i = at + 1; i < lines.length && lines[i]!.startsWith(' '); i++) line++;
  return line;
}

function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

/** Output as a Markdown code block whose fence no line of it can close. */
function fenced(text: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}\n${text.replace(/\n$/, '')}\n${fence}`;
}

function absolute(root: string, path: string): string {
  return isAbsolute(path) ? path : resolve(root, path);
}
