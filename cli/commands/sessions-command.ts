import { allSessions, listSessions } from '../../actors/transcript/session-catalog.js';
import { projectDir, sessionsDir } from '../../actors/transcript/store-paths.js';
import { sessionLine } from '../describe-sessions.js';

// `reika sessions [--all] [--json]`: the stored sessions of this folder (all folders with
// `--all`), newest first, with what `reika --resume ID` needs. `--json` prints one array of
// `{id, root, created, updated, turns, firstPrompt, promptTokens, cachedTokens, completionTokens,
// model, transcript}`. No model server is involved.

const USAGE = 'usage: reika sessions [--all] [--json]';

export async function run(argv: string[]): Promise<number> {
  let json = false;
  let all = false;
  for (const arg of argv) {
    if (arg === '--json') json = true;
    else if (arg === '--all' || arg === '-a') all = true;
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    } else {
      process.stderr.write(`reika: unexpected argument ${arg} (${USAGE})\n`);
      return 2;
    }
  }
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const root = process.cwd();
  const sessions = all ? allSessions() : listSessions(root);
  if (json) {
    process.stdout.write(`${JSON.stringify(sessions.map((s) => ({ ...s.meta, transcript: s.files.transcript })))}\n`);
    return 0;
  }
  if (sessions.length === 0) {
    process.stderr.write(all ? `reika: no stored sessions (they go in ${sessionsDir()})\n` : `reika: no sessions of ${root} yet (reika sessions --all lists every folder's)\n`);
    return 0;
  }
  const width = process.stdout.columns ?? 120;
  for (const session of sessions) process.stdout.write(`${sessionLine(session, width, all)}\n`);
  process.stderr.write(`reika: resume one with reika --resume ID (reika -c: the newest); transcripts are in ${all ? sessionsDir() : projectDir(root)}\n`);
  return 0;
}
