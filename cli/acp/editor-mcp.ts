import { RequestError, type McpServer } from '@agentclientprotocol/sdk';
import { DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS, type McpServerConfig } from '../../actors/mcp/config.js';

// The MCP servers an editor passes with `session/new` / `session/load`, as reika's own server
// config: they join the session's servers (the user's `mcp.json` and the project's `.mcp.json`)
// and are trusted like the user's own, since the user configured them in the editor. Their tools
// ask as any MCP tool does. One of the same name replaces the configured one.

/** Where the status line and `/mcp` say such a server came from. */
export const EDITOR_FILE = 'the editor (ACP session)';

export function editorMcpServers(servers: readonly McpServer[], root: string): McpServerConfig[] {
  return servers.map((server) => {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(server.name)) throw RequestError.invalidParams(undefined, `MCP server "${server.name}": a name is letters, digits, ".", "_" or "-" (at most 64)`);
    const common = { name: server.name, source: 'user' as const, file: EDITOR_FILE, approveAlways: false, timeoutMs: DEFAULT_TOOL_TIMEOUT_MS, startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS };
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      return { ...common, type: server.type, url: server.url, headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])) };
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    return { ...common, type: 'stdio', command: stdio.command, args: stdio.args, env: Object.fromEntries(stdio.env.map((variable) => [variable.name, variable.value])), cwd: root };
  });
}
