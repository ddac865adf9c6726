import { join } from 'node:path';
import { customAlphabet } from 'nanoid';
import { projectStateDir, stateFolder } from '../state-dir.js';

// Where transcripts live: `$XDG_STATE_HOME/reika/sessions/<project>/<id>.jsonl`, one folder per
// project root (the root's key, `actors/state-dir.ts`: checkpoints are kept the same way), with
// `<id>.meta.json` (the listing's figures) and `<id>.lock` (the process writing it) beside each
// transcript, and the project's prompt history in `history.jsonl`.

/** `$XDG_STATE_HOME/reika/sessions`. */
export function sessionsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateFolder(env), 'sessions');
}

/** The folder of one project root's sessions. */
export function projectDir(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return projectStateDir('sessions', root, stateFolder(env));
}

export interface SessionFiles {
  transcript: string;
  meta: string;
  lock: string;
}

export function sessionFiles(dir: string, id: string): SessionFiles {
  return { transcript: join(dir, `${id}.jsonl`), meta: join(dir, `${id}.meta.json`), lock: join(dir, `${id}.lock`) };
}

/** Session ids: 10 lowercase letters and digits (a unique prefix is enough to name one). */
export const newSessionId: () => string = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 10);

/** True for a whole session id (what a transcript file is named after). */
export function isSessionId(text: string): boolean {
  return /^[0-9a-z]{10}$/.test(text);
}

/** True for a string that can be a session id or a prefix of one (no path tricks). */
export function isIdLike(text: string): boolean {
  return /^[0-9a-z]{1,10}$/.test(text);
}
