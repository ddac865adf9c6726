import { errorClass } from '../../../runtime/errors.js';

// One permission rule in Claude Code's syntax (SPEC §17): `Tool` or `Tool(specifier)`, in a
// settings file's `permissions.allow`, `ask` or `deny`. Tool names are case-insensitive and
// Claude Code's names map onto reika's tools, so rules written for it paste in unchanged.

export type RuleEffect = 'allow' | 'ask' | 'deny';

/** Where a rule was written: the settings layer and its file (shown by `/permissions` and in notes). */
export interface RuleSource {
  scope: 'user' | 'project' | 'local';
  file: string;
}

/** A rule as data: what travels to the tool executor with every call (it keeps no session state). */
export interface RuleData extends RuleSource {
  effect: RuleEffect;
  /** The rule as written, e.g. `Bash(git push:*)`. */
  rule: string;
}

/** What a rule names once parsed: which tools, and the specifier between the parentheses. */
export interface ParsedRule {
  /** The kind of specifier the rule takes, which decides how it matches. */
  kind: 'command' | 'path' | 'domain' | 'tool';
  /** reika's tool names the rule covers (`edit` covers `write` too, as Claude Code's Edit does). */
  tools: readonly string[];
  /** Undefined for a bare `Tool` (or `Tool(*)`): every use of the tool. */
  specifier?: string;
}

/**
 * Claude Code's tool names (lower-cased) and reika's own, to the reika tools a rule covers.
 * Edit rules apply to every tool that changes a file; Read rules to every tool that reads them.
 */
const TOOLS: Record<string, { kind: ParsedRule['kind']; tools: readonly string[] }> = {
  bash: { kind: 'command', tools: ['bash'] },
  read: { kind: 'path', tools: ['read', 'list', 'glob', 'grep'] },
  edit: { kind: 'path', tools: ['edit', 'write', 'multi_edit', 'multiedit'] },
  multiedit: { kind: 'path', tools: ['edit', 'write', 'multi_edit', 'multiedit'] },
  write: { kind: 'path', tools: ['write'] },
  glob: { kind: 'path', tools: ['glob'] },
  grep: { kind: 'path', tools: ['grep'] },
  ls: { kind: 'path', tools: ['list'] },
  list: { kind: 'path', tools: ['list'] },
  webfetch: { kind: 'domain', tools: ['fetch'] },
  fetch: { kind: 'domain', tools: ['fetch'] },
  websearch: { kind: 'tool', tools: ['search', 'web_search'] },
  task: { kind: 'tool', tools: ['subagent'] },
  agent: { kind: 'tool', tools: ['subagent'] },
  subagent: { kind: 'tool', tools: ['subagent'] },
  todowrite: { kind: 'tool', tools: ['todo', 'todo_write'] },
  todo: { kind: 'tool', tools: ['todo', 'todo_write'] },
};

/** A rule reika cannot read. */
export class RuleSyntaxError extends errorClass('REIKA_ERR_RULE_SYNTAX') {}

/**
 * Parses `Tool` / `Tool(specifier)`. An MCP rule is `mcp__server` (every tool of the server),
 * `mcp__server__*` or `mcp__server__tool`. Throws a {@link RuleSyntaxError} saying what is wrong.
 */
export function parseRule(text: string): ParsedRule {
  const rule = text.trim();
  const open = rule.indexOf('(');
  const name = (open === -1 ? rule : rule.slice(0, open)).trim();
  let specifier: string | undefined;
  if (open !== -1) {
    if (!rule.endsWith(')')) throw new RuleSyntaxError(`"${text}" opens a parenthesis it does not close`);
    specifier = rule.slice(open + 1, -1).trim();
    if (specifier === '' || specifier === '*') specifier = undefined;
  }
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name) && !/^mcp__[A-Za-z0-9_-]+__\*$/i.test(name)) throw new RuleSyntaxError(`"${text}" does not start with a tool name`);
  const lower = name.toLowerCase();
  if (lower.startsWith('mcp__')) {
    if (specifier !== undefined) throw new RuleSyntaxError(`"${text}": an MCP rule takes no parentheses (mcp__server or mcp__server__tool)`);
    return { kind: 'tool', tools: [lower.endsWith('__*') ? lower.slice(0, -1) : lower] };
  }
  const known = TOOLS[lower];
  if (!known) {
    // A tool reika may gain later, or another MCP spelling: matched by its exact name.
    if (specifier !== undefined) throw new RuleSyntaxError(`"${text}": reika has no tool ${name} that takes a specifier`);
    return { kind: 'tool', tools: [lower] };
  }
  if (specifier === undefined) return { kind: known.kind, tools: known.tools };
  if (known.kind === 'tool') throw new RuleSyntaxError(`"${text}": ${name} takes no specifier`);
  if (known.kind === 'domain') {
    const domain = /^domain:(.+)$/i.exec(specifier)?.[1]?.trim().toLowerCase();
    if (!domain || /[\s/]/.test(domain)) throw new RuleSyntaxError(`"${text}": write ${name}(domain:example.com)`);
    return { kind: 'domain', tools: known.tools, specifier: domain };
  }
  return { kind: known.kind, tools: known.tools, specifier };
}

/** True when an MCP rule of `tools` (`mcp__server` or `mcp__server__` for all, or the exact tool) covers `tool`. */
export function coversTool(tools: readonly string[], tool: string): boolean {
  const name = tool.toLowerCase();
  for (const covered of tools) {
    if (covered === name) return true;
    if (covered.startsWith('mcp__') && (covered.endsWith('__') ? name.startsWith(covered) : !covered.slice(5).includes('__') && name.startsWith(`${covered}__`))) return true;
  }
  return false;
}
