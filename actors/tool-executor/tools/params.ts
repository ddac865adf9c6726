import { ToolError } from './tool-error.js';

/**
 * A tool's arguments declared once: each {@link Param} gives both the JSON schema of its key
 * (what the model is shown) and the check of the value the model sent. Models send loosely typed
 * JSON, so numbers and booleans given as strings are accepted and `null` counts as absent;
 * anything else wrong is one INVALID_ARGS error naming the key and what was expected.
 */

export interface Param<T, Required extends boolean = boolean> {
  /** The key's JSON schema, e.g. `{ type: 'integer', minimum: 1, description }`. */
  readonly schema: Readonly<Record<string, unknown>>;
  readonly required: Required;
  /** The checked value, `undefined` when absent; throws INVALID_ARGS. */
  read(tool: string, key: string, value: unknown): T | undefined;
}

export type Params = Record<string, Param<unknown>>;

/** The argument object a set of params describes: required keys present, the others optional. */
export type ArgsOf<P extends Params> = {
  [K in keyof P as P[K] extends Param<unknown, true> ? K : never]: P[K] extends Param<infer T> ? T : never;
} & {
  [K in keyof P as P[K] extends Param<unknown, true> ? never : K]?: P[K] extends Param<infer T> ? T : never;
};

export function invalidArgs(tool: string, message: string): ToolError {
  return new ToolError('INVALID_ARGS', `${tool}: ${message}`);
}

interface StringOptions<R extends boolean> {
  required: R;
  /** A blank value is refused when required, treated as absent otherwise. */
  nonEmpty?: boolean;
}

/** A string; `nonEmpty` refuses (required) or drops (optional) a blank one. */
export function string<R extends boolean>(description: string, options: StringOptions<R>): Param<string, R> {
  return {
    schema: { type: 'string', description },
    required: options.required,
    read(tool, key, value) {
      if (value === undefined || value === null) {
        if (options.required) throw invalidArgs(tool, `"${key}" is required`);
        return undefined;
      }
      if (typeof value !== 'string') throw invalidArgs(tool, `"${key}" must be a string, not ${typeof value}`);
      if (options.nonEmpty && value.trim() === '') {
        if (options.required) throw invalidArgs(tool, `"${key}" must not be empty`);
        return undefined;
      }
      return value;
    },
  };
}

/** A path argument: a non-blank string, relative to the project root or absolute. */
export function path<R extends boolean>(description: string, options: { required: R }): Param<string, R> {
  return string(description, { required: options.required, nonEmpty: true });
}

interface IntegerOptions {
  min: number;
  max?: number;
}

/** An optional whole number within bounds; `"12"` is read as 12. */
export function integer(description: string, options: IntegerOptions): Param<number, false> {
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  return {
    schema: { type: 'integer', minimum: options.min, ...(options.max !== undefined ? { maximum: options.max } : {}), description },
    required: false,
    read(tool, key, raw) {
      let value = raw;
      if (value === undefined || value === null || value === '') return undefined;
      if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) value = Number(value);
      if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidArgs(tool, `"${key}" must be a whole number`);
      if (value < options.min || value > max) throw invalidArgs(tool, `"${key}" must be between ${options.min} and ${max}, not ${value}`);
      return value;
    },
  };
}

/** An optional boolean; `"true"` / `"false"` are read as such. */
export function boolean(description: string): Param<boolean, false> {
  return {
    schema: { type: 'boolean', description },
    required: false,
    read(tool, key, value) {
      if (value === undefined || value === null) return undefined;
      if (value === 'true') return true;
      if (value === 'false') return false;
      if (typeof value !== 'boolean') throw invalidArgs(tool, `"${key}" must be true or false`);
      return value;
    },
  };
}

/** The `parameters` object of a tool's schema. */
export function objectSchema(params: Params): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [key, param] of Object.entries(params)) properties[key] = param.schema;
  const required = Object.keys(params).filter((key) => params[key]!.required);
  return { type: 'object', properties, required, additionalProperties: false };
}

/** Checks a call's raw arguments against its params; keys the params do not name are ignored. */
export function readArgs<P extends Params>(tool: string, params: P, raw: unknown): ArgsOf<P> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidArgs(tool, 'arguments must be a JSON object');
  const args: Record<string, unknown> = {};
  for (const [key, param] of Object.entries(params)) {
    const value = param.read(tool, key, (raw as Record<string, unknown>)[key]);
    if (value !== undefined) args[key] = value;
  }
  return args as ArgsOf<P>;
}
