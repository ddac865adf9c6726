import type { ApprovalClass, ToolDefinition } from '../tool-executor/tools/define-tool.js';
import { defineTool } from '../tool-executor/tools/define-tool.js';
import type { McpServerConfig } from './config.js';
import { mcpAddress, type McpToolInfo } from './protocol.js';

// An MCP server's tool as the session's registry holds it: its server's schema, offered in agent
// mode (and plan mode when the server marks it read-only), run by the server's actor.

/**
 * How its use is approved (SPEC §4, §14): `safe` asks unless the config says `"approve":
 * "always"` or the server marks the tool read-only; `off` asks every time; `bypass` never. That is
 * the `flagged` class with no flags, or `ask`.
 */
export function mcpApproval(tool: Pick<McpToolInfo, 'readOnly'>, server: Pick<McpServerConfig, 'approveAlways'>): Extract<ApprovalClass, 'flagged' | 'ask'> {
  return tool.readOnly || server.approveAlways ? 'flagged' : 'ask';
}

export function mcpToolDefinition(tool: McpToolInfo, server: McpServerConfig): ToolDefinition {
  return defineTool({
    name: tool.name,
    description: tool.description || `${tool.serverName} (from the MCP server ${server.name})`,
    parameters: tool.parameters,
    modes: tool.readOnly ? { agent: {}, plan: {} } : { agent: {} },
    approval: mcpApproval(tool, server),
    runs: { actor: mcpAddress(server.name) },
  });
}
