import type { ToolName } from './protocol.js';
import { ToolError } from './tool-error.js';

/**
 * Argument validation for the seven tools. Models send loosely typed JSON, so numbers and
 * booleans given as strings are accepted; anything else wrong becomes one INVALID_ARGS error that
 * says which key and what was expected.
 */

export interface ReadArgs { path: string; offset?: number; limit?: number }
export interface ListArgs { path?: string; depth?: number }
export interface GlobArgs { pattern: string; path?: string }
export interface GrepArgs { pattern: string; path?: string; glob?: string; ignore_case?: boolean }
export interface EditArgs { path: string; old_string: string; new_string: string }
export interface WriteArgs { path: string; content: string }
export interface BashArgs { command: string; timeout_ms?: number }

export interface ToolArgs {
  read: ReadArgs;
  list: ListArgs;
  glob: GlobArgs;
  grep: GrepArgs;
  edit: EditArgs;
  write: WriteArgs;
  bash: BashArgs;
}

type Raw = Record<string, unknown>;

function invalid(tool: string, message: string): ToolError {
  return new ToolError('INVALID_ARGS', `${tool}: ${message}`);
}

function string(tool: string, raw: Raw, key: string, options: { required: true; nonEmpty?: boolean }): string;
function string(tool: string, raw: Raw, key: string, options: { required: false; nonEmpty?: boolean }): string | undefined;
function string(tool: string, raw: Raw, key: string, options: { required: boolean; nonEmpty?: boolean }): string | undefined {
  const value = raw[key];
  if (value === undefined || value === null) {
    if (options.required) throw invalid(tool, `"${key}" is required`);
    return undefined;
  }
  if (typeof value !== 'string') throw invalid(tool, `"${key}" must be a string, not ${typeof value}`);
  if (options.nonEmpty && value.trim() === '') {
    if (options.required) throw invalid(tool, `"${key}" must not be empty`);
    return undefined;
  }
  return value;
}

function integer(tool: string, raw: Raw, key: string, min: number, max: number): number | undefined {
  let value = raw[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) value = Number(value);
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(tool, `"${key}" must be a whole number`);
  if (value < min || value > max) throw invalid(tool, `"${key}" must be between ${min} and ${max}, not ${value}`);
  return value;
}

function boolean(tool: string, raw: Raw, key: string): boolean | undefined {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (typeof value !== 'boolean') throw invalid(tool, `"${key}" must be true or false`);
  return value;
}

const validators: { [K in ToolName]: (raw: Raw) => ToolArgs[K] } = {
  read: (raw) => ({
    path: string('read', raw, 'path', { required: true, nonEmpty: true }),
    offset: integer('read', raw, 'offset', 1, Number.MAX_SAFE_INTEGER),
    limit: integer('read', raw, 'limit', 1, 5_000),
  }),
  list: (raw) => ({
    path: string('list', raw, 'path', { required: false, nonEmpty: true }),
    depth: integer('list', raw, 'depth', 1, 5),
  }),
  glob: (raw) => ({
    pattern: string('glob', raw, 'pattern', { required: true, nonEmpty: true }),
    path: string('glob', raw, 'path', { required: false, nonEmpty: true }),
  }),
  grep: (raw) => ({
    pattern: string('grep', raw, 'pattern', { required: true }),
    path: string('grep', raw, 'path', { required: false, nonEmpty: true }),
    glob: string('grep', raw, 'glob', { required: false, nonEmpty: true }),
    ignore_case: boolean('grep', raw, 'ignore_case'),
  }),
  edit: (raw) => {
    const args = {
      path: string('edit', raw, 'path', { required: true, nonEmpty: true }),
      old_string: string('edit', raw, 'old_string', { required: true }),
      new_string: string('edit', raw, 'new_string', { required: true }),
    };
    if (args.old_string === '') throw invalid('edit', '"old_string" must not be empty (use write to create a file)');
    if (args.old_string === args.new_string) throw invalid('edit', '"old_string" and "new_string" are the same: nothing would change');
    return args;
  },
  write: (raw) => ({
    path: string('write', raw, 'path', { required: true, nonEmpty: true }),
    content: string('write', raw, 'content', { required: true }),
  }),
  bash: (raw) => ({
    command: string('bash', raw, 'command', { required: true, nonEmpty: true }),
    timeout_ms: integer('bash', raw, 'timeout_ms', 1, 24 * 3_600_000),
  }),
};

export const TOOL_NAMES = Object.keys(validators) as ToolName[];

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(validators, name);
}

/** Validates a call's arguments; throws INVALID_ARGS (or UNKNOWN_TOOL) as a ToolError. */
export function validateArgs<K extends ToolName>(name: K, raw: unknown): ToolArgs[K] {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(name, 'arguments must be a JSON object');
  return validators[name](raw as Raw);
}
