import type { Checkpoint, Restored } from '../actors/tool-executor/safety/checkpoint-store.js';
import type { UserHead } from '../actors/tool-executor/safety/user-head.js';

// How `/checkpoints`, `/undo` and `reika undo` print steps and what an undo changed.

const SHOWN = 40;

/**
 * One line per step, oldest first, each with the `/undo N` that restores the files before it. The
 * steps in `unchanged` changed no file: an undo passes over them (N counts the others), and they say so.
 */
export function describeCheckpoints(steps: Checkpoint[], undo = '/undo', unchanged = new Set<number>()): string[] {
  if (steps.length === 0) return ['no checkpoints: nothing to undo in this session'];
  // When no step changed a file, an undo takes the steps as they are (checkpoint-store.ts).
  const passing = steps.some((step) => !unchanged.has(step.n));
  const lines = steps.map((step, i) => {
    const time = new Date(step.at).toTimeString().slice(0, 8);
    const back = passing ? steps.slice(i).filter((later) => !unchanged.has(later.n)).length : steps.length - i;
    const skipped = step.skipped?.length ? ` (${step.skipped.length} file${step.skipped.length === 1 ? '' : 's'} too big to hold)` : '';
    const hint = passing && unchanged.has(step.n) ? 'changed no file: passed over' : `${undo} ${back}`;
    return `  ${String(step.n).padStart(3)}  ${time}  ${step.tool.padEnd(5)}  ${oneLine(step.label, 60)}${skipped}  ${hint}`;
  });
  return [`${steps.length} step${steps.length === 1 ? '' : 's'} to undo (oldest first; ${undo} N restores the files as they were before the N-th last step):`, ...lines];
}

/** What an undo did, one line per file. */
export function describeRestore(restored: Restored): string[] {
  const { checkpoint, steps } = restored;
  const over = restored.passedOver ?? [];
  const passing = over.length > 0 ? ` (passing over ${over.length} that changed no file)` : '';
  const head = `undid ${steps} step${steps === 1 ? '' : 's'}${passing}: files are as they were before step ${checkpoint.n} (${checkpoint.tool}: ${oneLine(checkpoint.label, 60)})`;
  const rows = [
    ...restored.changed.map((path) => `  restored  ${path}`),
    ...restored.recreated.map((path) => `  back      ${path}  (deleted since)`),
    ...restored.removed.map((path) => `  removed   ${path}  (created since)`),
    ...restored.leftAlone.map((path) => `  kept      ${path}  (not held: ignored or too big)`),
  ];
  const passed = over.map((step) => `  passed    step ${step.n} (${step.tool}: ${oneLine(step.label, 60)})  (changed no file)`);
  const git = restored.git ? [describeHeadMove(restored.git.then, restored.git.now)] : [];
  if (rows.length === 0) return [head, '  no file differed', ...passed, ...git];
  return [head, ...rows.slice(0, SHOWN), ...(rows.length > SHOWN ? [`  … and ${rows.length - SHOWN} more`] : []), ...passed, ...git];
}

/** The user's HEAD moved since the snapshot: undo restores files, not history; the git command that goes back. */
function describeHeadMove(then: UserHead, now: UserHead | undefined): string {
  const at = (head: UserHead | undefined) => (!head ? 'unknown' : `${head.branch ?? 'detached'}${head.commit ? ` ${head.commit.slice(0, 12)}` : ' (no commit yet)'}`);
  const moved = `  git       HEAD moved since then (${at(then)} → ${at(now)}); undo restores files, not commits or the index`;
  if (then.commit && then.branch === now?.branch) return `${moved}: \`git reset --soft ${then.commit.slice(0, 12)}\` moves ${then.branch ? 'the branch' : 'HEAD'} back`;
  if (then.branch && then.commit) return `${moved}: \`git switch ${then.branch}\` goes back to the branch`;
  if (then.commit) return `${moved}: \`git switch --detach ${then.commit.slice(0, 12)}\` goes back`;
  return moved;
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
