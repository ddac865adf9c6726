import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { HttpServerConfig, McpServerConfig } from './config.js';
import { GroupStdioTransport } from './group-stdio-transport.js';
import type { McpHello, McpToolInfo } from './protocol.js';
import { mcpToolName, toolParameters } from './tool-names.js';

/** How long a server may take to answer `initialize` and list its tools. */
export const STARTUP_TIMEOUT_MS = 30_000;
const CLIENT_INFO = { name: 'reika', version: '0.1.0' };

/** A connected server, with what it offers. */
export interface Connection {
  client: Client;
  hello: McpHello;
  /** True once {@link close} was called: the connection's end is ours, not the server's. */
  readonly closing: boolean;
  alive(): boolean;
  /** How a stdio server ended ("was killed by SIGKILL", "exited with code 1: …"). */
  describeExit(): string;
  close(): Promise<void>;
}

/** Connects (stdio, streamable HTTP, or SSE), then lists every tool. Throws one sentence. */
export async function connectServer(server: McpServerConfig): Promise<Connection> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  let client = new Client(CLIENT_INFO, { capabilities: {} });
  let transport: Transport;
  let stdio: GroupStdioTransport | undefined;
  if (server.type === 'stdio') {
    transport = stdio = new GroupStdioTransport(server);
    try {
      await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
    } catch (error) {
      await stdio.close().catch(() => {});
      throw new Error(stdioFailure(stdio, error));
    }
  } else {
    // The fallback to SSE connects a fresh client: the one that tried streamable HTTP is spent.
    ({ client, transport } = await connectHttp(client, server, () => new Client(CLIENT_INFO, { capabilities: {} })));
  }
  let closing = false;
  const alive = () => (stdio ? stdio.exited === undefined : true);
  let tools: McpToolInfo[];
  try {
    tools = await listTools(client, server.name);
  } catch (error) {
    closing = true;
    await transport.close().catch(() => {});
    throw new Error(stdio && !alive() ? stdioFailure(stdio, error) : `listing its tools failed: ${messageOf(error)}`);
  }
  const info = client.getServerVersion();
  const instructions = client.getInstructions();
  return {
    client,
    hello: { tools, ...(info ? { serverInfo: { name: info.name, version: info.version } } : {}), ...(instructions ? { instructions } : {}) },
    get closing() {
      return closing;
    },
    alive,
    describeExit: () => (stdio ? describeExit(stdio) : 'closed the connection'),
    async close() {
      closing = true;
      await client.close().catch(() => {});
    },
  };
}

async function connectHttp(client: Client, server: HttpServerConfig, fresh: () => Client): Promise<{ client: Client; transport: Transport }> {
  const url = new URL(server.url);
  const requestInit = { headers: server.headers };
  if (server.type === 'http') {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const transport = new StreamableHTTPClientTransport(url, { requestInit });
    try {
      await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
      return { client, transport };
    } catch (error) {
      await transport.close().catch(() => {});
      // A server of the older HTTP+SSE protocol answers the POST with 404 or 405 (the SDK's
      // StreamableHTTPError carries the status as `code`): try its transport.
      if (!refusesPost(error)) throw new Error(`${server.url}: ${messageOf(error)}`);
      client = fresh();
    }
  }
  const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
  const transport = new SSEClientTransport(url, {
    requestInit,
    eventSourceInit: { fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...server.headers } }) },
  });
  try {
    await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
  } catch (error) {
    await transport.close().catch(() => {});
    throw new Error(`${server.url}: ${messageOf(error)}`);
  }
  return { client, transport };
}

async function listTools(client: Client, server: string): Promise<McpToolInfo[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: McpToolInfo[] = [];
  const taken = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout: STARTUP_TIMEOUT_MS });
    for (const tool of page.tools) {
      const name = mcpToolName(server, tool.name, taken);
      taken.add(name);
      tools.push({
        name,
        serverName: tool.name,
        description: (tool.description ?? tool.title ?? '').trim(),
        parameters: toolParameters(tool.inputSchema),
        readOnly: tool.annotations?.readOnlyHint === true,
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

function stdioFailure(stdio: GroupStdioTransport, error: unknown): string {
  if (stdio.exited) return `the server ${describeExit(stdio, ' before it answered')}`;
  return messageOf(error);
}

function describeExit(stdio: GroupStdioTransport, when = ''): string {
  const exit = stdio.exited;
  const how = !exit ? 'stopped' : exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  if (!exit || exit.signal) return `${how}${when}`;
  const last = stdio.stderrTail.trim().split('\n').filter((line) => line.trim() !== '').at(-1)?.trim();
  return last ? `${how}${when} (its last words: ${last.slice(0, 200)})` : `${how}${when}`;
}

function refusesPost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 404 || code === 405 || /\b40[45]\b/.test(messageOf(error));
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
}
