import { randomBytes } from 'node:crypto';

/**
 * The session checkpoints are filed under: `REIKA_SESSION_ID`, which the reika process sets once
 * (its tool executor, a child process, inherits it, also across restarts); a command run through
 * `bash` does not inherit it (a nested reika is a session of its own).
 */
export const SESSION_VARIABLE = 'REIKA_SESSION_ID';

/** This process's session id, made on first use. */
export function checkpointSession(env: NodeJS.ProcessEnv = process.env): string {
  env[SESSION_VARIABLE] ||= `${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}-${randomBytes(3).toString('hex')}`;
  return env[SESSION_VARIABLE]!;
}
