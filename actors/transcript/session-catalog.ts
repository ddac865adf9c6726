import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReikaError } from '../../runtime/errors.js';
import { UsageLedger } from '../agent/usage-ledger.js';
import { readTranscript } from './read-transcript.js';
import { isIdLike, isSessionId, projectDir, sessionFiles, sessionsDir, type SessionFiles } from './store-paths.js';
import type { SessionMeta } from './transcript-event.js';

// The sessions on disk: those of one project root (newest first), all of them, or the one an id
// (or a unique prefix of it) names, wherever its project folder is now. The figures come from the
// `ID.meta.json` beside each transcript; a transcript whose meta is missing or damaged is read
// instead (slower, still listed). The lists — `reika sessions`, the `--resume` picker, `/resume`,
// `--continue`'s "newest", the other sessions a refusal names — offer only sessions something was
// asked in ({@link wasAsked}); an id still opens any of them.

export interface StoredSession {
  id: string;
  files: SessionFiles;
  meta: SessionMeta;
}

/** The sessions of `root` worth offering, newest first. */
export function listSessions(root: string, env: NodeJS.ProcessEnv = process.env): StoredSession[] {
  return sessionsIn(projectDir(root, env));
}

/** Every folder's sessions worth offering, newest first. */
export function allSessions(env: NodeJS.ProcessEnv = process.env): StoredSession[] {
  const base = sessionsDir(env);
  let dirs: string[];
  try {
    dirs = readdirSync(base);
  } catch {
    return [];
  }
  return dirs.flatMap((dir) => sessionsIn(join(base, dir))).sort(newestFirst);
}

/**
 * The session `id` names (a unique prefix is enough); one sentence when there is none or several.
 * A prefix is unique when it fits one session or, failing that, one of the sessions the lists
 * offer: a session nobody asked anything in, which the user never saw listed, does not make the
 * prefix they copied from `reika sessions` ambiguous.
 */
export function findSession(id: string, env: NodeJS.ProcessEnv = process.env): StoredSession {
  const wanted = id.trim().toLowerCase();
  if (!isIdLike(wanted)) throw new ReikaError('REIKA_ERR_NO_SUCH_SESSION', `"${id}" is not a session id (reika sessions lists them)`);
  const matches = allIds(env)
    .filter((found) => found.id.startsWith(wanted))
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((found) => ({ ...found, meta: metaOf(found.files, found.id) }));
  const exact = matches.find((found) => found.id === wanted);
  if (exact) return exact;
  const offered = matches.length > 1 ? matches.filter(wasAsked) : matches;
  if (offered.length === 1) return offered[0]!;
  if (matches.length === 0) throw new ReikaError('REIKA_ERR_NO_SUCH_SESSION', `there is no session ${id} (reika sessions lists them)`);
  const named = offered.length > 1 ? offered : matches;
  throw new ReikaError('REIKA_ERR_NO_SUCH_SESSION', `"${id}" names ${named.length} sessions (${named.slice(0, 5).map((m) => m.id).join(', ')}); give more of the id`);
}

function allIds(env: NodeJS.ProcessEnv): { id: string; files: SessionFiles }[] {
  const base = sessionsDir(env);
  const found: { id: string; files: SessionFiles }[] = [];
  let dirs: string[];
  try {
    dirs = readdirSync(base);
  } catch {
    return found;
  }
  for (const dir of dirs) {
    for (const id of transcriptIds(join(base, dir))) found.push({ id, files: sessionFiles(join(base, dir), id) });
  }
  return found;
}

function sessionsIn(dir: string): StoredSession[] {
  return transcriptIds(dir)
    .map((id) => {
      const files = sessionFiles(dir, id);
      return { id, files, meta: metaOf(files, id) };
    })
    .filter(wasAsked)
    .sort(newestFirst);
}

/**
 * True when a prompt was ever sent in the session (its transcript holds a `turn-start`): there is
 * something to go on with. A transcript with only its header, the frozen bootstrap, settings or
 * context changes and no turn (a run killed between opening its transcript and recording the first
 * prompt, a write that failed after the header) is not offered; its file stays, and its id still
 * opens it. The meta's count is a cache written after the transcript line: a count of 0 is checked
 * against the transcript, so a turn the meta missed still lists the session. A transcript that
 * cannot be read is offered, so opening it says what is wrong.
 */
function wasAsked(session: StoredSession): boolean {
  if (session.meta.turns > 0) return true;
  try {
    return readTranscript(session.files.transcript, session.id).events.some((event) => event.type === 'turn-start');
  } catch {
    return true;
  }
}

function transcriptIds(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith('.jsonl') && isSessionId(name.slice(0, -6))).map((name) => name.slice(0, -6));
}

function metaOf(files: SessionFiles, id: string): SessionMeta {
  try {
    const meta = JSON.parse(readFileSync(files.meta, 'utf8')) as SessionMeta;
    if (meta && meta.id === id && typeof meta.updated === 'string') return meta;
  } catch {
    // rebuilt from the transcript below
  }
  return metaFromTranscript(files, id);
}

/** The figures, counted from the transcript itself (no meta file, or a damaged one). */
function metaFromTranscript(files: SessionFiles, id: string): SessionMeta {
  const meta: SessionMeta = { id, root: '', created: '', updated: '', turns: 0, firstPrompt: '', promptTokens: 0, cachedTokens: 0, completionTokens: 0, v: 0 };
  if (!existsSync(files.transcript)) return meta;
  // Summed as the session summed them (a damaged transcript: up to where it breaks).
  const usage = new UsageLedger();
  try {
    const transcript = readTranscript(files.transcript, id);
    meta.root = transcript.header.root;
    meta.created = meta.updated = transcript.header.created;
    meta.v = transcript.header.v;
    for (const event of transcript.events) {
      if (event.type === 'turn-start') {
        meta.turns++;
        if (meta.firstPrompt === '') meta.firstPrompt = event.prompt;
        meta.updated = event.at;
      } else if (event.type === 'turn-end') {
        meta.updated = event.at;
      } else if (event.type === 'ctx' && event.op === 'usage' && event.usage) {
        usage.record(event.usage);
      }
    }
  } catch (error) {
    // A damaged or foreign transcript is still listed; opening it says what is wrong.
    meta.firstPrompt = `(${error instanceof Error ? error.message : String(error)})`;
  }
  const { promptTokens, cachedTokens, completionTokens } = usage.totals;
  Object.assign(meta, { promptTokens, cachedTokens, completionTokens });
  return meta;
}

function newestFirst(a: StoredSession, b: StoredSession): number {
  return b.meta.updated.localeCompare(a.meta.updated) || b.id.localeCompare(a.id);
}
