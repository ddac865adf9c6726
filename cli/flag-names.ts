/**
 * The session flags that take a value, and the setting each sets (`--resume` takes one only when
 * a word follows it). Apart from session-flags.ts so that main's subcommand search reads it
 * without loading the configuration code before the model-io thread is started.
 */
export const VALUED: Record<string, 'profile' | 'mode' | 'approvals' | 'cwd'> = { '--profile': 'profile', '--mode': 'mode', '--approvals': 'approvals', '--cwd': 'cwd', '-C': 'cwd' };
