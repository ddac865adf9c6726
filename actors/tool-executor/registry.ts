import { AGENT_MODES, type AgentMode } from '../agent-mode.js';
import type { ToolSchema } from '../model-io/protocol.js';
import { subagentTool } from './tools/subagent.js';
import { ReikaError } from '../../runtime/errors.js';
import type { ToolDefinition } from './tools/define-tool.js';
import { bashTool } from './tools/bash.js';
import { editTool } from './tools/edit.js';
import { globTool } from './tools/glob.js';
import { grepTool } from './tools/grep.js';
import { listTool } from './tools/list.js';
import { readTool } from './tools/read.js';
import { fetchTool } from './tools/fetch.js';
import { searchTool } from './tools/search.js';
import { todoTool } from './tools/todo.js';
import { writeTool } from './tools/write.js';

// The tools of a session, in one place: the OpenAI `tools` array of each mode, the mode filters
// and the runners all read it.
//
// **Same mode, same bytes.** The engine's prefix cache covers the tools array, so a session must
// send identical bytes in every request. The first {@link ToolRegistry.toolsArray} call of a mode
// fixes that mode's array; from then on `register` refuses (a tool found later waits for the next
// session or `/cd`), and each call returns a fresh copy of the same JSON. The built-ins come first
// in their fixed order, tools registered later follow sorted by name, so the order never depends
// on which server answered first.
//
// **How a tool that does not run in the executor registers** (an MCP tool, next):
// ```ts
// registry.register(defineTool({
//   name: `mcp__${server}__${tool.name}`,          // must match NAME_PATTERN, ≤ 64 characters
//   description: tool.description,
//   parameters: tool.inputSchema,                  // the server's JSON schema, sent as it is
//   modes: readOnly ? { agent: {}, plan: {} } : { agent: {} },
//   approval: approveAlways || readOnly ? 'never' : 'ask',
//   runs: { actor: `mcp/${server}` },              // the agent loop sends the call there
// }));
// ```
// before the session's first request. The agent loop routes each call by its definition's `runs`:
// `executor` to the tool executor, `agent-loop` to its own hook (the subagent wave), `{ actor }`
// to that actor, which answers with a `ToolResult` and asks the approver itself (`approvals.ts`
// `decide`) when the class is `ask`.

/** OpenAI function names: letters, digits, `_` and `-`, at most 64. */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Every built-in tool a session always offers, in the order models see them (SPEC §3, §19). */
export const BUILTIN_TOOLS: readonly ToolDefinition[] = Object.freeze([readTool, listTool, globTool, grepTool, editTool, writeTool, bashTool, todoTool, fetchTool, subagentTool]);

/** What a session's settings add to the built-ins. */
export interface ToolSettings {
  /** REIKA_SEARCH_URL: `search` is offered only with an endpoint. */
  searchUrl?: string | undefined;
}

/** The built-ins a session offers with these settings, in order (`search` after `fetch`, when set). */
export function sessionTools(settings: ToolSettings): ToolDefinition[] {
  if (!settings.searchUrl) return [...BUILTIN_TOOLS];
  const tools = [...BUILTIN_TOOLS];
  tools.splice(tools.indexOf(fetchTool) + 1, 0, searchTool);
  return tools;
}

export class ToolRegistry {
  private readonly builtins: ToolDefinition[] = [];
  private readonly added: ToolDefinition[] = [];
  private readonly byName = new Map<string, ToolDefinition>();
  /** The JSON of each mode's tools array, fixed by its first use. */
  private readonly arrays = new Map<AgentMode, string>();
  private fixed = false;

  constructor(builtins: readonly ToolDefinition[] = BUILTIN_TOOLS) {
    for (const tool of builtins) this.builtins.push(this.admit(tool));
  }

  /** Adds a tool; refused once a tools array was taken, for a bad or duplicate name. */
  register(tool: ToolDefinition): void {
    if (this.fixed) {
      throw new ReikaError('REIKA_ERR_TOOLS_FIXED', `the tool ${tool.name} cannot be added now: the session's tools are fixed once its tools array was taken (a change would break the engine's prefix cache)`);
    }
    this.added.push(this.admit(tool));
    this.added.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Refuses every later `register`. */
  fix(): this {
    this.fixed = true;
    return this;
  }

  get(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }

  /** The tools a mode offers, in order. */
  offered(mode: AgentMode): ToolDefinition[] {
    return [...this.builtins, ...this.added].filter((tool) => tool.modes[mode] !== undefined);
  }

  /** The OpenAI `tools` array of a mode: a fresh copy of the same bytes on every call. */
  toolsArray(mode: AgentMode): ToolSchema[] {
    let json = this.arrays.get(mode);
    if (json === undefined) {
      this.fixed = true;
      json = JSON.stringify(this.offered(mode).map((tool) => schemaOf(tool, mode)));
      this.arrays.set(mode, json);
    }
    return JSON.parse(json) as ToolSchema[];
  }

  private admit(tool: ToolDefinition): ToolDefinition {
    if (!NAME_PATTERN.test(tool.name)) throw new ReikaError('REIKA_ERR_TOOL_NAME', `"${tool.name}" is not a valid tool name (letters, digits, _ and -, at most 64)`);
    if (this.byName.has(tool.name)) throw new ReikaError('REIKA_ERR_TOOL_NAME', `a tool named ${tool.name} is already registered`);
    if (!AGENT_MODES.some((mode) => tool.modes[mode] !== undefined)) throw new ReikaError('REIKA_ERR_TOOL_NAME', `the tool ${tool.name} is offered in no mode`);
    this.byName.set(tool.name, tool);
    return tool;
  }
}

/** The built-ins alone, shared by everything that adds no tool (subagents, tests). */
export const builtinTools = new ToolRegistry().fix();

/** Every tool the executor can run: the built-ins and `search` (which refuses a call without an endpoint). */
export const executorTools = new ToolRegistry(sessionTools({ searchUrl: 'set' })).fix();

function schemaOf(tool: ToolDefinition, mode: AgentMode): ToolSchema {
  const description = tool.modes[mode]?.description ?? tool.description;
  return { type: 'function', function: { name: tool.name, description, parameters: tool.parameters as Record<string, unknown> } };
}
