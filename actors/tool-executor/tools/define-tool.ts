import type { AgentMode } from '../../agent-mode.js';
import { invalidArgs, objectSchema, readArgs, type ArgsOf, type Params } from './params.js';
import type { PreparedCall } from '../prepared.js';
import type { ToolEnv, ToolOutcome } from './tool-env.js';

/**
 * How a tool's use is approved (SPEC §4), whatever the approvals mode; `bypass` never asks.
 * - `never`: it changes nothing, so it runs at once (read, list, glob, grep, subagent), unless its
 *   guard flags a reason (a credential path): then `safe` and `off` ask.
 * - `flagged`: `safe` asks only when preparing the call flagged a reason (a dangerous command, a
 *   write outside the project); `off` asks every time (edit, write, bash).
 * - `ask`: `safe` and `off` both ask (an MCP tool without `approve: always` or a read-only hint).
 */
export type ApprovalClass = 'never' | 'flagged' | 'ask';

/** How a tool differs in one mode that offers it. */
export interface ModeVariant<Args> {
  /** Replaces the description in this mode (plan's bash says that it is read-only). */
  description?: string;
  /** Why this call may not run in this mode (one line), or undefined. Checked before preparing. */
  refuse?(args: Args, root: string): string | undefined | Promise<string | undefined>;
}

/** The modes offering a tool; a mode not named does not offer it (and refuses it if called). */
export type ToolModes<Args> = Readonly<Partial<Record<AgentMode, ModeVariant<Args>>>>;

/** Offered in every mode, the same everywhere. */
export const EVERY_MODE: ToolModes<never> = { agent: {}, plan: {}, subagent: {} };

/**
 * Where a call goes: `executor` (the tool-executor process, through {@link ExecutorTool.prepare}),
 * `agent-loop` (the loop runs it itself, like the `subagent` wave), or another actor by address
 * (an MCP server's actor).
 */
export type ToolRunner = 'executor' | 'agent-loop' | { actor: string };

interface ToolBase<Args> {
  /** The stable name models call (SPEC §3); `mcp__<server>__<tool>` for MCP tools. */
  readonly name: string;
  readonly description: string;
  /** The JSON schema of the arguments object, sent to the model as is. */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly modes: ToolModes<Args>;
  readonly approval: ApprovalClass;
  /** Checks the model's arguments: the typed args, or a ToolError `INVALID_ARGS` saying what is wrong. */
  validate(raw: unknown): Args;
}

/** A tool the executor runs: `prepare` says what it will do (for approval) and how. */
export interface ExecutorTool<Args = unknown> extends ToolBase<Args> {
  readonly runs: 'executor';
  /** See {@link ExecutorToolSpec.exclusive}. */
  exclusive?(args: Args, root: string): string;
  prepare(args: Args, env: ToolEnv): Promise<PreparedCall>;
}

/** A tool that runs outside the executor (the agent loop, an MCP actor). */
export interface ForeignTool<Args = unknown> extends ToolBase<Args> {
  readonly runs: Exclude<ToolRunner, 'executor'>;
}

export type ToolDefinition<Args = unknown> = ExecutorTool<Args> | ForeignTool<Args>;

interface CommonSpec<Args> {
  name: string;
  description: string;
  modes: ToolModes<Args>;
}

/** A built-in tool: params declared with `params.ts`, run by the executor. */
export type ExecutorToolSpec<P extends Params> = CommonSpec<ArgsOf<P>> & {
  params: P;
  /**
   * Calls with the same key run one at a time, from preparing to the end (edit and write key on
   * the file's real path, so two edits of one file both land instead of one overwriting the other).
   */
  exclusive?(args: ArgsOf<P>, root: string): string;
  /** Checks across keys after each key was read (e.g. edit's old and new text differ); throws INVALID_ARGS. */
  check?(args: ArgsOf<P>): void;
} & (
    | {
        approval: 'never';
        run(args: ArgsOf<P>, env: ToolEnv): Promise<ToolOutcome>;
        /**
         * What this call would reach that needs a person's yes all the same (a credential path,
         * SPEC §16): an action with reasons is asked about in `safe` and `off` like a flagged one.
         */
        guard?(args: ArgsOf<P>, env: ToolEnv): PreparedCall['action'] | undefined;
      }
    | { approval: 'flagged' | 'ask'; prepare(args: ArgsOf<P>, env: ToolEnv): PreparedCall | Promise<PreparedCall> }
  );

/** A tool with a schema from elsewhere (an MCP server's `inputSchema`) that another actor runs. */
export type ForeignToolSpec<Args> = CommonSpec<Args> & {
  parameters: Record<string, unknown>;
  /** Gets the raw arguments object; the default takes it as it is (the server checks it). */
  validate?(raw: Record<string, unknown>): Args;
  /** `flagged` with no flags: `safe` runs it, `off` asks (an MCP tool marked read-only or `approve: always`). */
  approval: ApprovalClass;
  runs: Exclude<ToolRunner, 'executor'>;
};

/**
 * One tool, declared in one place: its name and description, its arguments (schema and check
 * together), the modes that offer it, its approval class, where it runs and how. The registry
 * (`registry.ts`) builds the tools array, the mode filters and the executor's dispatch from
 * these, so adding a tool is adding one file and one registry line.
 */
export function defineTool<P extends Params>(spec: ExecutorToolSpec<P>): ExecutorTool<ArgsOf<P>>;
export function defineTool<Args = Record<string, unknown>>(spec: ForeignToolSpec<Args>): ForeignTool<Args>;
export function defineTool(spec: ExecutorToolSpec<Params> | ForeignToolSpec<unknown>): ToolDefinition {
  const base = {
    name: spec.name,
    description: spec.description,
    modes: spec.modes,
    approval: spec.approval,
  };
  if ('runs' in spec) {
    const validate = spec.validate ?? ((raw: Record<string, unknown>) => raw);
    return deepFreeze({ ...base, parameters: structuredClone(spec.parameters), runs: spec.runs, validate: (raw: unknown) => validate(asObject(spec.name, raw)) });
  }
  const { params, check } = spec;
  const prepare = 'run' in spec
    ? async (args: ArgsOf<Params>, env: ToolEnv): Promise<PreparedCall> => {
        const action = spec.guard?.(args, env);
        return { ...(action && action.reasons.length > 0 ? { action } : {}), run: () => spec.run(args, env) };
      }
    : async (args: ArgsOf<Params>, env: ToolEnv): Promise<PreparedCall> => spec.prepare(args, env);
  return deepFreeze({
    ...base,
    parameters: objectSchema(params),
    runs: 'executor' as const,
    ...(spec.exclusive ? { exclusive: spec.exclusive } : {}),
    validate: (raw: unknown) => {
      const args = readArgs(spec.name, params, raw);
      check?.(args);
      return args;
    },
    prepare,
  });
}

function asObject(tool: string, raw: unknown): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidArgs(tool, 'arguments must be a JSON object');
  return raw as Record<string, unknown>;
}

/** Definitions are shared by every session of the process: nothing may change one in place. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
