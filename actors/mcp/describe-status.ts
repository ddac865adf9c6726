import type { McpChange, McpServerStatus } from './hub.js';

// MCP servers in words, for `/mcp`, the terminal's notes and headless stderr (and `reika doctor`).

/** `everything (user, stdio) ready: 13 tools` / `db (project, stdio) failed: the command "x" was not found`. */
export function describeServer(status: McpServerStatus): string {
  const where = `${status.name} (${status.source}, ${status.type})`;
  if (status.state === 'ready') return `${where} ready: ${status.tools.length} tool${status.tools.length === 1 ? '' : 's'}`;
  return `${where} ${status.state}${status.reason ? `: ${status.reason}` : ''}`;
}

/** The lines of `/mcp`: each server, its command and tools; then how to change them. */
export function describeServers(statuses: readonly McpServerStatus[], problems: readonly string[], offered: ReadonlySet<string>): string[] {
  const lines: string[] = [];
  if (statuses.length === 0) lines.push('no MCP servers configured (add them to .mcp.json or ~/.config/reika/mcp.json: {"mcpServers": {…}})');
  for (const status of statuses) {
    lines.push(describeServer(status));
    lines.push(`  $ ${status.command}`);
    if (status.tools.length > 0) {
      const waiting = status.tools.filter((name) => !offered.has(name));
      lines.push(`  tools: ${status.tools.join(', ')}`);
      if (waiting.length > 0 && status.state === 'ready') lines.push(`  not in this session's tools yet: /mcp reload (or /cd .) adds them`);
    }
  }
  for (const problem of problems) lines.push(`config: ${problem}`);
  return lines;
}

/** A change worth telling the user as it happens, or undefined. `joined`: its tools are offered already. */
export function describeChange(change: McpChange, joined: boolean): string | undefined {
  if (change.state === 'ready') {
    const tools = `${change.tools} tool${change.tools === 1 ? '' : 's'}`;
    return joined ? `MCP server ${change.server} ready: ${tools}` : `MCP server ${change.server} ready: ${tools}, offered from /mcp reload or /cd . (the tools array is fixed per session for the prefix cache)`;
  }
  if (change.state === 'failed' || change.state === 'declined') return `MCP server ${change.server} ${change.state}: ${change.reason ?? ''}`.trimEnd();
  if (change.reason?.startsWith('restarting') || change.reason?.startsWith('not ready within')) return `MCP server ${change.server} ${change.reason}`;
  return undefined;
}
