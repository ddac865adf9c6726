import { execFile } from 'node:child_process';
import { access, constants, mkdir } from 'node:fs/promises';
import { stateFolder } from '../../state-dir.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckpointStore, MAX_CHECKPOINT_FILE_BYTES, WATCH_OFF_FILE } from './checkpoint-store.js';
import type { ToolSettings } from '../protocol.js';
import { sandboxState, type SandboxState } from './sandbox.js';

// Sandbox and checkpoint state in one place, for the note at start and `reika doctor`.

export interface CheckpointState {
  enabled: boolean;
  /** The state folder the stores live under. */
  folder: string;
  /** This project's store folder. */
  store: string;
  /** Sessions with checkpoints in this project, and the steps of the last one. */
  sessions: number;
  lastSession?: string;
  lastSessionSteps?: number;
  maxFileBytes: number;
  /** Why checkpoints are off (REIKA_CHECKPOINTS=off, no git, a read-only state folder). */
  note?: string;
  /** Why each checkpoint walks the whole tree instead of reading what the watcher saw change. */
  fullWalk?: string;
}

export interface SafetyStatus {
  sandbox: SandboxState;
  checkpoints: CheckpointState;
}

/** Why checkpoints in this project walk the whole tree: this process's watcher, the setting, the last session's note. */
async function fullWalkReason(settings: ToolSettings, store: CheckpointStore): Promise<string | undefined> {
  const live = store.watchState();
  if (live) return live.kind === 'off' ? live.reason : undefined;
  if (!settings.checkpointWatch) return 'REIKA_CHECKPOINT_WATCH=off';
  if (process.platform !== 'linux') return `no inotify on ${process.platform}`;
  return (await readFile(join(store.dir, WATCH_OFF_FILE), 'utf8').catch(() => '')).trim() || undefined;
}

/** The sandbox and the checkpoints of `root` under the session's settings. */
export async function safetyStatus(root: string, settings: ToolSettings): Promise<SafetyStatus> {
  const [sandbox, checkpoints] = await Promise.all([sandboxState(settings.sandbox), checkpointState(root, settings)]);
  return { sandbox, checkpoints };
}

async function checkpointState(root: string, settings: ToolSettings): Promise<CheckpointState> {
  const folder = stateFolder();
  const store = CheckpointStore.for(root, { watch: settings.checkpointWatch });
  const state: CheckpointState = { enabled: true, folder, store: store.dir, sessions: 0, maxFileBytes: MAX_CHECKPOINT_FILE_BYTES };
  if (!settings.checkpoints) return { ...state, enabled: false, note: 'REIKA_CHECKPOINTS=off: edits and commands are not checkpointed' };
  const git = await new Promise<boolean>((done) => execFile('git', ['--version'], (error) => done(!error)));
  if (!git) return { ...state, enabled: false, note: 'git is not installed: no checkpoints' };
  try {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await access(folder, constants.W_OK);
  } catch (error) {
    return { ...state, enabled: false, note: `the state folder ${folder} is not writable (${(error as NodeJS.ErrnoException).code ?? error}): no checkpoints` };
  }
  const fullWalk = await fullWalkReason(settings, store);
  if (fullWalk) state.fullWalk = fullWalk;
  const sessions = await store.sessions();
  state.sessions = sessions.length;
  if (sessions[0]) {
    state.lastSession = sessions[0].session;
    state.lastSessionSteps = sessions[0].steps;
  }
  return state;
}

/** Human lines for `reika doctor`. */
export function describeSafety(status: SafetyStatus): string[] {
  const { sandbox, checkpoints } = status;
  const box =
    sandbox.kind === 'none'
      ? `sandbox: none — ${sandbox.note}`
      : `sandbox: ${sandbox.kind} (${sandbox.program}${sandbox.pidNamespace ? ', own PID namespace' : ''}; REIKA_SANDBOX=${sandbox.setting})${sandbox.note ? ` — ${sandbox.note}` : ''}`;
  const points = checkpoints.enabled
    ? `checkpoints: on, in ${checkpoints.store} (${checkpoints.sessions} session${checkpoints.sessions === 1 ? '' : 's'}${checkpoints.lastSession ? `; last ${checkpoints.lastSession}, ${checkpoints.lastSessionSteps} step${checkpoints.lastSessionSteps === 1 ? '' : 's'} to undo` : ''}; files over ${checkpoints.maxFileBytes / 1024 / 1024} MB are not held${checkpoints.fullWalk ? `; each checkpoint walks the whole tree: ${checkpoints.fullWalk}` : ''})`
    : `checkpoints: off — ${checkpoints.note}`;
  return [box, points];
}
