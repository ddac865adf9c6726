import { ToolError } from './tool-error.js';

export interface Param<T, Required extends boolean = boolean> {
  /** The key's JSON schema, e.g. `{ type: 'integer', minimum: 1, description }`. */
  readonly schema: Readonly<Record<string, unknown>>;
  readonly required: Required;
  /** The checked value, `undefined` when absent; throws INVALID_ARGS. */
  read(tool: string, key: string, value: unknown): T | undefined;
}

/**
 * A tool's arguments declared once: each {@link Param} gives both the JSON schema of its key
 * (what the model is shown) and the check of the value the model sent. Models send loosely typed
 * JSON, so numbers and booleans given as strings are accepted and `null` counts as absent;
 * anything else wrong is one INVALID_ARGS error naming the key and what was expected.
 */
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

/** One of a few strings. */
export function choice<T extends string, R extends boolean>(description: string, values: readonly T[], options: { required: R }): Param<T, R> {
  return {
    schema: { type: 'string', enum: [...values], description },
    required: options.required,
    read(tool, key, value) {
      if (value === undefined || value === null) {
        if (options.required) throw invalidArgs(tool, `"${key}" is required`);
        return undefined;
      }
      if (typeof value !== 'string' || !values.includes(value as T)) throw invalidArgs(tool, `"${key}" must be one of ${values.join(', ')}, not ${JSON.stringify(value)}`);
      return value as T;
    },
  };
}

interface ListOptions<R extends boolean> {
  required: R;
  /** At least this many items (default 1). */
  min?: number;
  max?: number;
}

/**
 * An array of objects, each checked against `item` like a call's arguments; an error names the
 * item (`item 3 of "edits": "old_string" is required`). A lone object is taken as a list of one.
 */
export function list<I extends Params, R extends boolean>(description: string, item: I, options: ListOptions<R>): Param<ArgsOf<I>[], R> {
  const min = options.min ?? 1;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  return {
    schema: { type: 'array', description, items: objectSchema(item), minItems: min, ...(options.max !== undefined ? { maxItems: max } : {}) },
    required: options.required,
    read(tool, key, raw) {
      let value = raw;
      if (value === undefined || value === null) {
        if (options.required) throw invalidArgs(tool, `"${key}" is required`);
        return undefined;
      }
      // Some models send a nested array as a JSON string.
      if (typeof value === 'string' && /^\s*\[/.test(value)) {
        try {
          value = JSON.parse(value) as unknown;
        } catch {
          throw invalidArgs(tool, `"${key}" must be an array of objects, not a string that is not JSON`);
        }
      }
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) value = [value];
      if (!Array.isArray(value)) throw invalidArgs(tool, `"${key}" must be an array of objects`);
      if (value.length < min || value.length > max) {
        throw invalidArgs(tool, max === Number.MAX_SAFE_INTEGER ? `"${key}" must hold at least ${min} item${min === 1 ? '' : 's'}` : `"${key}" must hold ${min} to ${max} items, not ${value.length}`);
      }
      return value.map((entry, index) => {
        if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw invalidArgs(tool, `item ${index + 1} of "${key}" must be an object`);
        try {
          return readArgs(tool, item, entry);
        } catch (error) {
          if (ToolError.isInstance(error)) throw invalidArgs(tool, `item ${index + 1} of "${key}": ${error.message.slice(tool.length + 2)}`);
          throw error;
        }
      });
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
