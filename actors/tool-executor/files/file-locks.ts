import { untilAborted } from '../../../runtime/abort.js';
import { cancelledError } from '../../../runtime/errors.js';

/**
 * One call at a time per key, in arrival order: the executor runs calls concurrently, and two
 * edits of one file must not both read the old text and write over each other. A waiting call
 * gives up its place at once when its signal aborts.
 */
export class FileLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    try {
      await untilAborted(previous, signal, () => cancelledError('cancelled while waiting for another call on the same file'));
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
