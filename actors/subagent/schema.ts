import type { ToolSchema } from '../model-io/protocol.js';

/**
 * The `subagent{task, files?}` tool: its schema (constant bytes, because the engine's prefix
 * cache covers the tools array) and the check of its arguments. Offered in `agent` and `plan`
 * modes, never in `subagent` mode: subagents cannot spawn subagents.
 */

export const SUBAGENT_TOOL = 'subagent';

/** How many `files` one call may name. */
export const MAX_FILES = 100;

const SCHEMA: ToolSchema = {
  type: 'function',
  function: {
    name: SUBAGENT_TOOL,
    description:
      'Hand one investigation to a subagent with its own context window and read-only tools (read, list, glob, grep). It returns one report that ends with the named files it did not read. Several subagent calls in one response run in parallel as a wave (at most 4 per wave, 3 waves per turn). Use it to read many files without filling your own context; give each subagent a self-contained task.',
    parameters: {
      type: 'object',
      properties: {
        task: { type: 'string', description: 'What to find out and what to report, self-contained (the subagent sees nothing of this conversation).' },
        files: { type: 'array', items: { type: 'string' }, description: 'Files the subagent must read; the report lists those it did not.' },
      },
      required: ['task'],
      additionalProperties: false,
    },
  },
};

/** The tool's schema; a fresh copy, the same bytes every time. */
export function subagentSchema(): ToolSchema {
  return structuredClone(SCHEMA);
}

/** The checked arguments of one call. */
export interface SubagentArgs {
  task: string;
  files: string[];
}

/** Checks a call's arguments; the error is one sentence the model can act on. */
export function parseSubagentArgs(args: Record<string, unknown>): { ok: true; value: SubagentArgs } | { ok: false; message: string } {
  const task = args.task;
  if (typeof task !== 'string' || task.trim() === '') return { ok: false, message: 'subagent needs a non-empty string "task" saying what to find out' };
  const files = args.files ?? [];
  if (!Array.isArray(files) || files.some((file) => typeof file !== 'string')) {
    return { ok: false, message: 'subagent "files" must be an array of path strings' };
  }
  const unknown = Object.keys(args).filter((key) => key !== 'task' && key !== 'files');
  if (unknown.length > 0) return { ok: false, message: `subagent takes only "task" and "files", not ${unknown.map((key) => `"${key}"`).join(', ')}` };
  const named = [...new Set((files as string[]).map((file) => file.trim()).filter(Boolean))];
  if (named.length > MAX_FILES) return { ok: false, message: `subagent "files" names ${named.length} files; at most ${MAX_FILES} per subagent: split them over several subagents` };
  return { ok: true, value: { task: task.trim(), files: named } };
}
