import { ReikaError, TOOL_ERROR_CODES } from '../../../runtime/errors.js';

/** Stable codes the model, the UI and tests branch on: members of the closed ReikaErrorCode set. */
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

const TOOL_CODES: ReadonlySet<string> = new Set(TOOL_ERROR_CODES);

/**
 * A tool failure the model can act on. Tools throw these; the wrapper (`run-tool.ts`) turns them
 * into an `error` ToolResult, so nothing ever throws at the model.
 */
export class ToolError extends ReikaError {
  declare readonly code: ToolErrorCode;

  constructor(
    code: ToolErrorCode,
    message: string,
    /** Extra content for the model (e.g. where the near matches are). */
    readonly payload = '',
  ) {
    super(code, message);
  }

  /** True for a ToolError from any realm, or its flattened record (which has no payload): a code of {@link TOOL_ERROR_CODES}. */
  static override isInstance(value: unknown): value is ToolError {
    return ReikaError.isInstance(value) && TOOL_CODES.has(value.code);
  }
}

/** Maps a Node fs error to a ToolError with a one-line message naming the path. */
export function fsError(error: unknown, displayPath: string): ToolError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return new ToolError('NOT_FOUND', `${displayPath} does not exist`);
    case 'EACCES':
    case 'EPERM':
      return new ToolError('PERMISSION_DENIED', `${displayPath}: permission denied`);
    case 'EISDIR':
      return new ToolError('NOT_A_FILE', `${displayPath} is a directory (use list to see inside)`);
    case 'ENOTDIR':
      return new ToolError('NOT_A_DIRECTORY', `${displayPath}: a part of the path is not a directory`);
    default:
      return new ToolError('IO_ERROR', `${displayPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
