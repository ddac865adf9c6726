import type { ToolSchema } from '../model-io/protocol.js';
import type { ToolName } from './protocol.js';

/**
 * The OpenAI `tools` array. Built from constants, so the same mode gives the same bytes every
 * time: the engine's prefix cache covers the tools, and any change would invalidate it.
 */

export type ToolMode = 'agent' | 'plan' | 'subagent';

const path = (what: string) => ({ type: 'string', description: what });

const SCHEMAS: Record<ToolName, ToolSchema> = {
  read: fn('read', 'Read a text file. Returns numbered lines (default 300 from offset 1) and says how many lines remain and which offset continues. Refuses binary files.', {
    path: path('File path, relative to the project root or absolute.'),
    offset: { type: 'integer', minimum: 1, description: '1-based line to start at (default 1).' },
    limit: { type: 'integer', minimum: 1, description: 'How many lines to return (default 300).' },
  }, ['path']),
  list: fn('list', 'List a folder as an indented tree (folders end in "/"). Skips files ignored by .gitignore and says how many were hidden; at most 500 entries.', {
    path: path('Folder to list (default: the project root).'),
    depth: { type: 'integer', minimum: 1, maximum: 5, description: 'How many levels deep (1-5, default 2).' },
  }, []),
  glob: fn('glob', 'Find files by path pattern: * matches within a folder, ** across folders, {a,b} alternatives. A pattern without "/" matches file names at any depth (e.g. "*.ts"). Ignored files are skipped; up to 200 paths, else a sample.', {
    pattern: { type: 'string', description: 'Glob pattern, e.g. "src/**/*.test.ts".' },
    path: path('Folder to search in (default: the project root).'),
  }, ['pattern']),
  grep: fn('grep', 'Search file contents with a JavaScript regular expression. Returns "path:line: text" for up to 100 matches; more are saved to a file you can read. Skips binary and ignored files.', {
    pattern: { type: 'string', description: 'JavaScript regular expression, e.g. "function\\\\s+load".' },
    path: path('Folder or file to search (default: the project root).'),
    glob: { type: 'string', description: 'Only files matching this glob, e.g. "*.py".' },
    ignore_case: { type: 'boolean', description: 'Case-insensitive search.' },
  }, ['pattern']),
  edit: fn('edit', 'Replace exactly one occurrence of old_string with new_string in a file. old_string must match the file exactly (whitespace included) and only once; add surrounding lines to make it unique.', {
    path: path('File to change.'),
    old_string: { type: 'string', description: 'Exact text to replace, copied from the file.' },
    new_string: { type: 'string', description: 'Replacement text.' },
  }, ['path', 'old_string', 'new_string']),
  write: fn('write', 'Create a new file with the given content (folders are created). Refuses to overwrite an existing file: use edit for that.', {
    path: path('Path of the new file.'),
    content: { type: 'string', description: 'The whole file content.' },
  }, ['path', 'content']),
  bash: fn('bash', 'Run a shell command with /bin/bash in the project root; stdin is empty. Returns the output (first 64 KB; the rest is saved to a file), the exit code and the files it changed. Background processes are stopped when the command ends.', {
    command: { type: 'string', description: 'The command line.' },
    timeout_ms: { type: 'integer', minimum: 1, description: 'Kill the command after this many milliseconds (default 30 minutes).' },
  }, ['command']),
};

const PLAN_BASH: ToolSchema = fn('bash', 'Run a read-only shell command (ls, cat, git status/log/diff/show, grep, find without -delete/-exec, wc, …) in the project root. Commands that change files are refused in this mode.', {
  command: { type: 'string', description: 'The command line.' },
  timeout_ms: { type: 'integer', minimum: 1, description: 'Kill the command after this many milliseconds.' },
}, ['command']);

const ORDER: Record<ToolMode, ToolName[]> = {
  agent: ['read', 'list', 'glob', 'grep', 'edit', 'write', 'bash'],
  plan: ['read', 'list', 'glob', 'grep', 'bash'],
  subagent: ['read', 'list', 'glob', 'grep'],
};

/** The tools offered in a mode, in a stable order; `plan` gets a read-only bash. */
export function toolSchemas(mode: ToolMode): ToolSchema[] {
  return ORDER[mode].map((name) => structuredClone(mode === 'plan' && name === 'bash' ? PLAN_BASH : SCHEMAS[name]));
}

function fn(name: string, description: string, properties: Record<string, unknown>, required: string[]): ToolSchema {
  return {
    type: 'function',
    function: { name, description, parameters: { type: 'object', properties, required, additionalProperties: false } },
  };
}
