/** Stable codes the model, the UI and tests branch on. */
export type ToolErrorCode =
  | 'INVALID_ARGS'
  | 'UNKNOWN_TOOL'
  | 'READ_ONLY_MODE'
  | 'NOT_FOUND'
  | 'NOT_A_FILE'
  | 'NOT_A_DIRECTORY'
  | 'PERMISSION_DENIED'
  | 'BINARY_FILE'
  | 'OFFSET_PAST_END'
  | 'INVALID_REGEX'
  | 'EDIT_NO_MATCH'
  | 'EDIT_MANY_MATCHES'
  | 'EDIT_NOT_UTF8'
  | 'WRITE_EXISTS'
  | 'BASH_TIMEOUT'
  | 'BASH_IDLE_TIMEOUT'
  | 'BASH_SPAWN_FAILED'
  | 'SANDBOX_UNAVAILABLE'
  | 'FETCH_FAILED'
  | 'FETCH_REFUSED'
  | 'SEARCH_FAILED'
  | 'IO_ERROR';

/**
 * A tool failure the model can act on. Tools throw these; the wrapper (`run-tool.ts`) turns them
 * into an `error` ToolResult, so nothing ever throws at the model.
 */
export class ToolError extends Error {
  override name = 'ToolError';

  constructor(
    readonly code: ToolErrorCode,
    message: string,
    /** Extra content for the model (e.g. where the near matches are). */
    readonly payload = '',
  ) {
    super(message);
  }

  static isInstance(value: unknown): value is ToolError {
    return value instanceof Error && value.name === 'ToolError' && typeof (value as ToolError).code === 'string';
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
