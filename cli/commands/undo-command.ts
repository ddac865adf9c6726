import { CheckpointStore } from '../../actors/tool-executor/safety/checkpoint-store.js';
import { describeCheckpoints, describeRestore } from '../checkpoints.js';
import { allSessions } from '../../actors/transcript/session-catalog.js';
import { sessionLine } from '../describe-sessions.js';

/**
 * `reika undo [--list] [N]`: undoes the last N steps (default 1) of the last session that worked
 * in this folder, restoring the files of its checkpoint, and prints which files changed (steps that
 * changed no file, like a test run, are passed over: undone along with the next one that did, and named);
 * `--list` prints the steps that can be undone. No model server is needed.
 */
export async function run(argv: string[]): Promise<number> {
  let list = false;
  let steps = 1;
  for (const arg of argv) {
    if (arg === '--list' || arg === '-l') list = true;
    else if (/^\d+$/.test(arg) && Number(arg) >= 1) steps = Number(arg);
    else return fail(`reika undo: unknown argument ${arg} (usage: reika undo [--list] [N])`);
  }
  const store = CheckpointStore.for(process.cwd());
  const session = await store.lastSession();
  if (!session) return fail(`reika undo: no checkpoints for ${store.root}: nothing to undo`);
  if (list) {
    const { steps: open, unchanged } = await store.listChanges(session);
    process.stdout.write(`${storedSessionLines(session).join('\n')}\n${describeCheckpoints(open, 'reika undo', unchanged).join('\n')}\n`);
    return 0;
  }
  try {
    process.stdout.write(`${describeRestore(await store.undo(session, steps, { passOver: true })).join('\n')}\n`);
    return 0;
  } catch (error) {
    return fail(`reika undo: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The stored session(s) whose run made these checkpoints, named as `reika sessions` names them
 * (a run that went on after `/new` worked in several); a run that stored no session says so.
 */
function storedSessionLines(checkpoints: string): string[] {
  const stored = allSessions().filter((s) => s.meta.checkpoints?.includes(checkpoints));
  if (stored.length === 0) return [`the last session that changed files here stored no transcript (its checkpoints: ${checkpoints})`];
  const width = process.stdout.columns ?? 120;
  return [`the last session that changed files here${stored.length > 1 ? ` (${stored.length} conversations of one run)` : ''}:`, ...stored.map((s) => sessionLine(s, width))];
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`);
  return 1;
}
