import { CheckpointStore, type Checkpoint } from './checkpoint-store.js';
import { checkpointSession } from './session-id.js';
import type { ToolSettings } from '../protocol.js';

// The checkpoint the executor takes before an edit, a write or a command runs (after approval,
// just before the step). A step never waits long for it: past the limit it goes ahead with a note
// (the snapshot still finishes, so the next one is quick), and a failing store is a note too.

/** How long a step waits for its snapshot (a first snapshot of a huge folder can take longer). */
export const CHECKPOINT_WAIT_MS = 20_000;

export interface StepCheckpoint {
  checkpoint?: Checkpoint;
  store?: CheckpointStore;
  /** Why there is none (one line, for the result's summary); undefined when checkpoints are off on purpose. */
  note?: string;
}

export async function checkpointBefore(root: string, settings: Pick<ToolSettings, 'checkpoints' | 'checkpointWatch'>, tool: string, label: string, waitMs = CHECKPOINT_WAIT_MS): Promise<StepCheckpoint> {
  if (!settings.checkpoints) return {};
  const gaveUp = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<StepCheckpoint>((resolve) => {
    timer = setTimeout(() => {
      gaveUp.abort();
      resolve({ note: `no checkpoint: the snapshot took longer than ${Math.round(waitMs / 1000)} s (the next one will be quicker)` });
    }, waitMs);
  });
  const store = CheckpointStore.for(root, { watch: settings.checkpointWatch });
  const taken = store
    .snapshot(checkpointSession(), tool, label, gaveUp.signal)
    .then(
      (checkpoint): StepCheckpoint => ({ checkpoint, store }),
      (error: unknown): StepCheckpoint => ({ note: `no checkpoint: ${error instanceof Error ? error.message : String(error)}` }),
    );
  try {
    return await Promise.race([taken, late]);
  } finally {
    clearTimeout(timer);
  }
}
