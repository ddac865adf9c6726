import { onAbort } from '../../../runtime/abort.js';
import type { ContextLike, SequenceLike } from './llama-api.js';
import type { LaneMemory } from './render.js';

// Context sequences handed to requests, one request per sequence at a time. The main agent has
// one sequence (a pool of one); the subagents share a pool: a subagent keeps the sequence it had
// while it lives, and a new one takes the free sequence whose cache shares most with its prompt
// (subagents share their system prompt), the least recently used on a tie, or waits for one.

export interface Lane {
  readonly sequence: SequenceLike;
  /** What the sequence's cache holds: the last request on it and what it generated. */
  memory: LaneMemory | undefined;
  release(): void;
}

interface Slot {
  sequence: SequenceLike;
  memory: LaneMemory | undefined;
  owner: string | undefined;
  busy: boolean;
  lastUsed: number;
}

export class LanePool {
  private readonly slots: Slot[];
  private readonly waiting: Array<() => void> = [];
  private clock = 0;

  private constructor(sequences: SequenceLike[], private readonly context?: ContextLike) {
    this.slots = sequences.map((sequence) => ({ sequence, memory: undefined, owner: undefined, busy: false, lastUsed: 0 }));
  }

  static single(sequence: SequenceLike): LanePool {
    return new LanePool([sequence]);
  }

  static of(context: ContextLike, count: number): LanePool {
    return new LanePool(Array.from({ length: count }, () => context.getSequence()), context);
  }

  get size(): number {
    return this.slots.length;
  }

  /**
   * A sequence for `owner`: its own if it has one, else the free one `score` likes best (higher is
   * better: shared prompt characters). Undefined if `signal` aborts while waiting.
   */
  async acquire(owner = 'main', score: (memory: LaneMemory | undefined) => number = () => 0, signal?: AbortSignal): Promise<Lane | undefined> {
    while (true) {
      if (signal?.aborted) return undefined;
      const slot = this.pick(owner, score);
      if (slot) {
        slot.busy = true;
        slot.owner = owner;
        slot.lastUsed = ++this.clock;
        return this.lane(slot);
      }
      await new Promise<void>((resolve) => {
        let removeAbort = () => {};
        const wake = () => {
          removeAbort();
          const at = this.waiting.indexOf(wake);
          if (at >= 0) this.waiting.splice(at, 1);
          resolve();
        };
        this.waiting.push(wake);
        if (signal) removeAbort = onAbort(signal, wake);
      });
    }
  }

  private pick(owner: string, score: (memory: LaneMemory | undefined) => number): Slot | undefined {
    const own = this.slots.find((slot) => slot.owner === owner);
    if (own) return own.busy ? undefined : own;
    let best: Slot | undefined;
    let bestScore = -1;
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const value = score(slot.memory);
      if (value > bestScore || (value === bestScore && best !== undefined && slot.lastUsed < best.lastUsed)) {
        best = slot;
        bestScore = value;
      }
    }
    return best;
  }

  private lane(slot: Slot): Lane {
    let released = false;
    return {
      sequence: slot.sequence,
      get memory() {
        return slot.memory;
      },
      set memory(memory) {
        slot.memory = memory;
      },
      release: () => {
        if (released) return;
        released = true;
        slot.busy = false;
        this.waiting.shift()?.();
      },
    };
  }

  async dispose(): Promise<void> {
    for (const slot of this.slots) slot.sequence.dispose();
    await this.context?.dispose();
  }
}
