import { isAbsolute } from 'node:path';
import { isCancelled } from '../../runtime/errors.js';
import { decide, type Ask } from './approvals.js';
import { isToolName, validateArgs } from './args.js';
import type { PreparedCall } from './prepared.js';
import type { ToolExecutorRequest, ToolName, ToolResult } from './protocol.js';
import { readOnlyViolation } from './read-only-commands.js';
import { toolSchemas } from './schemas.js';
import { ToolError } from './tool-error.js';
import type { ToolEnv, ToolOutcome } from './tool-env.js';
import { prepareBash } from './tools/bash.js';
import { prepareEdit } from './tools/edit.js';
import { globTool } from './tools/glob.js';
import { grepTool } from './tools/grep.js';
import { listTool } from './tools/list.js';
import { readTool } from './tools/read.js';
import { prepareWrite } from './tools/write.js';

/** No payload is bigger than this, whatever a tool produced (bash keeps 64 KB itself). */
export const MAX_PAYLOAD_CHARS = 256 * 1024;
const MAX_SUMMARY_CHARS = 600;

/**
 * The one wrapper every call goes through: unknown tool and bad arguments become typed results,
 * read-only modes are enforced, changing actions are approved first, failures become `error`
 * results and an abort becomes `cancelled`. It never throws.
 */
export async function runTool(request: ToolExecutorRequest, env: ToolEnv, ask: Ask): Promise<ToolResult> {
  const base = { callId: request.callId, name: request.name };
  try {
    const name = request.name;
    if (typeof request.context?.root !== 'string' || !isAbsolute(request.context.root)) {
      throw new ToolError('INVALID_ARGS', `the call's context has no absolute project root (got ${JSON.stringify(request.context?.root)})`);
    }
    if (!isToolName(name)) {
      const offered = toolSchemas(request.context.mode).map((schema) => schema.function.name);
      throw new ToolError('UNKNOWN_TOOL', `there is no tool named "${name}"; the tools are ${offered.join(', ')}`);
    }
    checkMode(name, request);
    const prepared = await prepare(name, request.args, env);
    if (prepared.action) {
      const verdict = await decide(prepared.action, request.context.approvals, ask, env.signal);
      if (!verdict.approved) {
        const summary = /^declined\b/i.test(verdict.note) ? verdict.note : `declined: ${verdict.note}`;
        return { ...base, status: 'declined', summary: oneLine(summary), payload: `Not done: ${verdict.note}` };
      }
    }
    if (env.signal.aborted) return { ...base, status: 'cancelled', summary: `${name} was cancelled before it ran`, payload: '' };
    return finish(base, await prepared.run());
  } catch (error) {
    if (ToolError.isInstance(error)) {
      return { ...base, status: 'error', errorCode: error.code, summary: oneLine(error.message), payload: clip(error.payload) };
    }
    if (env.signal.aborted || isCancelled(error)) return { ...base, status: 'cancelled', summary: `${request.name} was cancelled${isCancelled(error) ? ` (${(error as Error).message})` : ''}`, payload: '' };
    const message = error instanceof Error ? error.message : String(error);
    return { ...base, status: 'error', errorCode: 'INTERNAL', summary: oneLine(`${request.name} failed: ${message}`), payload: '' };
  }
}

function checkMode(name: ToolName, request: ToolExecutorRequest): void {
  const mode = request.context.mode;
  if (mode === 'agent') return;
  if (name === 'edit' || name === 'write') throw new ToolError('READ_ONLY_MODE', `${name} is not available in ${mode} mode, which is read-only`);
  if (name !== 'bash') return;
  if (mode === 'subagent') throw new ToolError('READ_ONLY_MODE', 'bash is not available to subagents, which are read-only');
  const command = typeof request.args?.command === 'string' ? request.args.command : '';
  const why = readOnlyViolation(command, request.context.root);
  if (why) throw new ToolError('READ_ONLY_MODE', `plan mode runs read-only commands only, and this one is not: ${why}`);
}

async function prepare(name: ToolName, raw: Record<string, unknown>, env: ToolEnv): Promise<PreparedCall> {
  const now = (run: () => Promise<ToolOutcome>): PreparedCall => ({ run });
  switch (name) {
    case 'read': {
      const args = validateArgs('read', raw);
      return now(() => readTool(args, env));
    }
    case 'list': {
      const args = validateArgs('list', raw);
      return now(() => listTool(args, env));
    }
    case 'glob': {
      const args = validateArgs('glob', raw);
      return now(() => globTool(args, env));
    }
    case 'grep': {
      const args = validateArgs('grep', raw);
      return now(() => grepTool(args, env));
    }
    case 'edit':
      return prepareEdit(validateArgs('edit', raw), env);
    case 'write':
      return prepareWrite(validateArgs('write', raw), env);
    case 'bash':
      return prepareBash(validateArgs('bash', raw), env);
  }
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
