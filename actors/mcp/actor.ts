import { client, defineActor, type RequestContext } from '../../runtime/actor.js';
import { ReikaError } from '../../runtime/errors.js';
import { decide } from '../tool-executor/approvals.js';
import { contextRules } from '../tool-executor/rules/context-rules.js';
import { withHookAnswer } from '../tool-executor/rules/hook-ruling.js';
import type { RuleMatch } from '../tool-executor/rules/permission-rules.js';
import { type ToolDelta, type ToolExecutorRequest, type ToolResult } from '../tool-executor/protocol.js';
import { APPROVER } from '../approver/protocol.js';
import { SpillStore } from '../tool-executor/files/spill.js';
import type { McpServerConfig } from './config.js';
import { connectServer, type Connection } from './connect.js';
import { convertResult } from './convert-result.js';
import { mcpApproval } from './mcp-tool.js';
import type { McpHello, McpProtocol, McpToolInfo } from './protocol.js';

// One MCP server's actor: a child process (`kind: 'process'`) that runs the SDK client, which in
// turn runs a stdio server in a process group of its own (or talks to an HTTP server).
//
// Why a process and not the main thread: loading the SDK (zod schemas, ajv) takes ~1.4 s of CPU
// on the loaded development machine, which would freeze the terminal; here it overlaps the user
// typing. And it puts the server under the runtime's supervision as it is: when a stdio server
// dies, the calls it held fail with one sentence and this process exits, so the supervisor
// restarts it (and the server) with backoff and stops after a crash loop. An abort of the turn
// aborts the call's signal, on which the SDK sends `notifications/cancelled`. At shutdown the
// server's whole process group is killed.
//
// A server that cannot be started makes `setup` exit with one line on stderr: the reason the hub
// shows.

interface Options {
  server: McpServerConfig;
}

let server: McpServerConfig;
let connection: Connection | undefined;
let hello: McpHello;
const byName = new Map<string, McpToolInfo>();
const spill = new SpillStore();
/** Set once a stdio server ended by itself: why, in words. */
let gone: string | undefined;

export default defineActor<McpProtocol, Options>({
  async setup({ options, leaving }) {
    server = options.server;
    try {
      connection = await connectServer(server);
    } catch (error) {
      die(error instanceof Error ? error.message : String(error));
    }
    hello = connection.hello;
    for (const tool of hello.tools) byName.set(tool.name, tool);
    connection.client.onclose = () => {
      if (connection?.closing) return;
      gone = connection?.describeExit() ?? 'closed the connection';
      // Before the calls it held fail: a call sent once the model has read that failure must go
      // to the next incarnation, not to this one on its way out (where it would fail as 'the MCP
      // server crashed').
      leaving();
      // The calls it held fail first (the SDK rejects them as the connection closes), then the
      // supervisor sees this process end and restarts it with backoff.
      setImmediate(() => die(`the server ${gone}`));
    };
  },

  async handle(request, context) {
    if (request.type === 'hello') return hello;
    if (request.type === 'run') return run(request, context);
    throw new Error(`the MCP actor does not understand a "${String((request as { type?: unknown }).type)}" request`);
  },

  async dispose() {
    await connection?.close();
    spill.dispose();
  },
});

/** The rule (or PreToolUse hook's answer) that decides an MCP call, and the rule "Always" would write. */
function mcpRuling(request: ToolExecutorRequest): { match?: RuleMatch; suggest(): string[] } {
  const match = withHookAnswer(contextRules(request.context)?.check({ tool: request.name }), request.context);
  return { ...(match ? { match } : {}), suggest: () => [request.name] };
}

async function run(request: ToolExecutorRequest, context: RequestContext<ToolDelta>): Promise<ToolResult> {
  const base = { callId: request.callId, name: request.name };
  const tool = byName.get(request.name);
  if (!tool) {
    return { ...base, status: 'error', errorCode: 'UNKNOWN_TOOL', summary: `the MCP server ${server.name} has no tool ${request.name} (any more); /mcp lists its tools`, payload: '' };
  }
  if (request.context.mode !== 'agent' && !tool.readOnly) {
    return { ...base, status: 'error', errorCode: 'READ_ONLY_MODE', summary: `${request.name} is not available in ${request.context.mode} mode, which is read-only`, payload: '' };
  }
  const args = request.args ?? {};
  const verdict = await decide(
    { tool: request.name, command: `${tool.serverName} ${JSON.stringify(args)}`.slice(0, 2000), reasons: [] },
    mcpApproval(tool, server),
    request.context.approvals,
    (approval) => client(context, APPROVER).request(approval),
    context.signal,
    mcpRuling(request),
  ).catch((error: unknown) => (context.signal.aborted ? undefined : Promise.reject(error)));
  if (!verdict) return cancelled(base);
  if (!verdict.approved) {
    const summary = /^declined\b/i.test(verdict.note) ? verdict.note : `declined: ${verdict.note}`;
    return { ...base, status: 'declined', summary: summary.replace(/\s*\n\s*/g, ' '), payload: `Not done: ${verdict.note}` };
  }
  const label = `${tool.serverName} (${server.name})`;
  const started = Date.now();
  try {
    const result = await connection!.client.callTool({ name: tool.serverName, arguments: args }, undefined, {
      signal: context.signal,
      timeout: server.timeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: (progress) => {
        const total = progress.total !== undefined ? `/${progress.total}` : '';
        context.emit({ type: 'output', stream: 'stderr', text: `progress ${progress.progress}${total}${progress.message ? ` ${progress.message}` : ''}\n` });
      },
    });
    const outcome = await convertResult(result, label, spill);
    return { ...base, status: outcome.status ?? 'done', summary: outcome.summary, payload: outcome.payload, ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}), meta: { durationMs: Date.now() - started } };
  } catch (error) {
    if (context.signal.aborted) return cancelled(base);
    if (gone !== undefined || !connection?.alive()) {
      throw new ReikaError('REIKA_ERR_MCP_SERVER_GONE', `the MCP server ${server.name} ${gone ?? 'stopped'} during the call; reika restarts it, so the call may be tried again`, { retryable: true });
    }
    const message = error instanceof Error ? error.message : String(error);
    return { ...base, status: 'error', errorCode: 'MCP_ERROR', summary: `${label} failed: ${message.replace(/\s*\n\s*/g, ' ').slice(0, 300)}`, payload: '' };
  }
}

function cancelled(base: { callId: string; name: string }): ToolResult {
  return { ...base, status: 'cancelled', summary: `${base.name} was cancelled (the server was told)`, payload: '' };
}

/** Ends this incarnation with one line that says why (the hub shows it; the supervisor restarts). */
function die(reason: string): never {
  process.stderr.write(`${reason.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(1);
}

