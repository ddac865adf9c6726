import { statSync } from 'node:fs';
import { join } from 'node:path';
import { stateFolder } from '../../actors/state-dir.js';
import { isSessionId } from '../../actors/transcript/store-paths.js';
import { appendJsonLine, readJsonLines, rewriteJsonLines } from '../json-lines.js';

// The session ids `session/new` gave editors, with the folder each was opened in. A transcript
// begins with the first prompt (an editor's panel opened and closed leaves none), but the editor
// keeps the id and may `session/load` it after a restart: an id found here and nowhere else
// loads as the empty session it was. `acp-sessions.jsonl` in reika's state folder, one JSON
// object a line, appended by every `reika acp`; rewritten with the newest {@link KEPT} once it
// holds twice as many.

const KEPT = 1000;
/** Past this size the file may hold twice {@link KEPT} (a line is 40 bytes and a folder). */
const COMPACT_AT_BYTES = 2 * KEPT * 64;

interface Issued {
  id: string;
  cwd: string;
}

function file(env: NodeJS.ProcessEnv): string {
  return join(stateFolder(env), 'acp-sessions.jsonl');
}

/** Notes that `id` was given to an editor for `cwd`; a state folder that cannot be written costs only a later load of an empty session. */
export function rememberIssued(id: string, cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  const path = file(env);
  try {
    appendJsonLine(path, JSON.stringify({ id, cwd } satisfies Issued));
    if (statSync(path).size > COMPACT_AT_BYTES) compact(path);
  } catch {
    // said in the doc above
  }
}

/** The folder `id` was opened in, if `session/new` gave it out. */
export function issuedFolder(id: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  let found: string | undefined;
  for (const entry of entries(file(env))) if (entry.id === id) found = entry.cwd;
  return found;
}

function entries(path: string): Issued[] {
  return readJsonLines(path).filter((value): value is Issued => {
    const entry = value as Partial<Issued> | null;
    return typeof entry?.id === 'string' && isSessionId(entry.id) && typeof entry.cwd === 'string';
  });
}

function compact(path: string): void {
  const all = entries(path);
  if (all.length > 2 * KEPT) rewriteJsonLines(path, all.slice(-KEPT).map(({ id, cwd }) => ({ id, cwd })));
}
