import { defineTool } from './define-tool.js';
import { ToolError } from './tool-error.js';

// The `subagent{task, files?}` tool. The agent loop runs it (its wave hook, `actors/subagent/wave.ts`), not the
// executor. Offered in `agent` and `plan` modes, never in `subagent` mode: subagents cannot
// spawn subagents.

export const SUBAGENT_TOOL = 'subagent';

/** How many `files` one call may name. */
export const MAX_FILES = 100;

/** The checked arguments of one call. */
export interface SubagentArgs {
  task: string;
  files: string[];
}

export const subagentTool = defineTool<SubagentArgs>({
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
  modes: { agent: {}, plan: {} },
  approval: 'never',
  runs: 'agent-loop',
  validate: checkArgs,
});

/** The error is one sentence the model can act on (a ToolError `INVALID_ARGS`). */
function checkArgs(args: Record<string, unknown>): SubagentArgs {
  const task = args.task;
  if (typeof task !== 'string' || task.trim() === '') throw invalid('subagent needs a non-empty string "task" saying what to find out');
  const files = args.files ?? [];
  if (!Array.isArray(files) || files.some((file) => typeof file !== 'string')) throw invalid('subagent "files" must be an array of path strings');
  const unknown = Object.keys(args).filter((key) => key !== 'task' && key !== 'files');
  if (unknown.length > 0) throw invalid(`subagent takes only "task" and "files", not ${unknown.map((key) => `"${key}"`).join(', ')}`);
  const named = [...new Set((files as string[]).map((file) => file.trim()).filter(Boolean))];
  if (named.length > MAX_FILES) throw invalid(`subagent "files" names ${named.length} files; at most ${MAX_FILES} per subagent: split them over several subagents`);
  return { task: task.trim(), files: named };
}

function invalid(message: string): ToolError {
  return new ToolError('INVALID_ARGS', message);
}
