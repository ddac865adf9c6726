import type { ToolIndex } from '../calls/tool-index.js';
import { dialectNamed } from './table.js';

/** A call's markup that could not be used, as the turn assembler collected it. */
export interface CallProblem {
  dialect: string;
  reason: string;
  unknownTool?: string;
}

/** An example call of `tool`: its first parameters with placeholder values. */
function sampleArguments(tools: ToolIndex, tool: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(tools.properties.get(tool) ?? {}).slice(0, 2)) {
    const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
    args[key] = type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : type === 'array' ? [] : type === 'object' ? {} : '…';
  }
  return args;
}

/**
 * The one note the model gets when its reply looked like a tool call but none could be used: what
 * went wrong, and the format to use, written in the model's own dialect (the list of tools when
 * it named one that does not exist).
 */
export function correctiveNote(problems: readonly CallProblem[], tools: ToolIndex): string {
  const first = problems[0]!;
  const names = [...tools.names];
  if (first.dialect === 'unknown') {
    const tool = names.includes('read') ? 'read' : names[0]!;
    return `[tool call not run: your reply held tool-call markup reika cannot read (${first.reason}). Write each call in your model's native tool-call format, or exactly like this:\n${hermesExample(tool, sampleArguments(tools, tool))}]`;
  }
  const dialect = dialectNamed(first.dialect) ?? dialectNamed('hermes')!;
  const tool = first.unknownTool || !names.includes('read') ? names[0]! : 'read';
  const example = dialect.example(tool, sampleArguments(tools, tool));
  const unknown = problems.find((problem) => problem.unknownTool);
  if (unknown) {
    return `[tool call not run: there is no tool named "${unknown.unknownTool}". The tools are: ${names.join(', ')}. Call one of them by its exact name, for example:\n${example}]`;
  }
  return `[tool call not run: it could not be read (${first.reason}). Write each call complete and exactly in this form (${dialect.label}):\n${example}]`;
}

/** The Hermes form every dialect here reads, for a model whose own format is unknown. */
function hermesExample(name: string, args: Record<string, unknown>): string {
  return `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
}

/** The user's one line about it. */
export function problemLine(problem: CallProblem): string {
  if (problem.dialect === 'unknown') return `The model wrote a tool call in a format reika does not know (${problem.reason}); it was asked to use its native format or <tool_call>{json}</tool_call>.`;
  const label = dialectNamed(problem.dialect)?.label ?? problem.dialect;
  return `The model wrote a tool call (${label}) that could not be used: ${problem.reason}.`;
}
