import { actorAddress, type ActorAddress, type Protocol } from '../../runtime/actor.js';
import type { ToolDelta, ToolExecutorRequest, ToolResult } from '../tool-executor/protocol.js';

// The contract of one MCP server's actor (`mcp/<server>`, a child process running the SDK client,
// which itself runs the server). The agent loop sends it tool calls exactly as it sends them to
// the tool executor; the hub (`hub.ts`) asks it what the server offers.

/** The actor's address for a server (the name as configured, before any renaming for tools). */
export function mcpAddress(server: string): ActorAddress<McpProtocol> {
  return actorAddress<McpProtocol>(`${MCP_PREFIX}${server}`);
}

/** Every MCP actor's address starts with this. */
export const MCP_PREFIX = 'mcp/';

/** One tool as the server lists it, with the name models will call. */
export interface McpToolInfo {
  /** `mcp__<server>__<tool>`, cut and made safe for strict servers (see `tool-names.ts`). */
  name: string;
  /** The name the server knows it by. */
  serverName: string;
  description: string;
  /** The server's JSON schema of the arguments, made an object schema if it was not one. */
  parameters: Record<string, unknown>;
  /** `annotations.readOnlyHint`: it changes nothing, so safe mode does not ask. */
  readOnly: boolean;
}

/** What the actor says once it is connected. */
export interface McpHello {
  tools: McpToolInfo[];
  /** The server's own name and version, as it gave them in `initialize`. */
  serverInfo?: { name: string; version: string };
  /** The server's `instructions`, if any (not put in the prompt: shown by `/mcp`). */
  instructions?: string;
}

export type McpRequest = { type: 'hello' } | ToolExecutorRequest;

export interface McpProtocol extends Protocol<McpRequest> {
  replies: { hello: McpHello; run: ToolResult };
  delta: ToolDelta;
}
