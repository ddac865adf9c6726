import type { ChildProcessByStdio } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { decodeTree, OID, type TreeEntry } from './git-objects.js';
import { storeGitProcess, type StorePaths } from './store-git.js';

const CACHED_TREES = 4_096;
const READ_MS = 10_000;

interface Waiting {
  oid: string;
  resolve: (body: Buffer) => void;
  reject: (error: Error) => void;
}

/**
 * Reads a store's trees through one `git cat-file --batch` kept running between snapshots (packed
 * or loose, borrowed or owned: git finds them), each tree parsed once and kept by id — a tree never
 * changes. The process ends with `close()`, or on its own when ours does (its stdin closes); it
 * does not keep the event loop alive while nothing is asked of it.
 */
export class TreeReader {
  private child: ChildProcessByStdio<Writable, Readable, null> | undefined;
  private waiting: Waiting[] = [];
  private pending: Buffer = Buffer.alloc(0);
  private readonly cache = new Map<string, TreeEntry[]>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly paths: StorePaths) {}

  /** The entries of tree `oid`; rejects when the store does not hold it as a tree. */
  async read(oid: string): Promise<TreeEntry[]> {
    const known = this.cache.get(oid);
    if (known) return known;
    if (!OID.test(oid)) throw new Error(`not an object id: ${oid}`);
    const entries = decodeTree(await this.ask(oid));
    this.remember(oid, entries);
    return entries;
  }

  /** A tree this store just wrote: read from memory from now on. */
  remember(oid: string, entries: TreeEntry[]): void {
    if (this.cache.size >= CACHED_TREES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(oid, entries);
  }

  /** Ends the process (a later read starts another). */
  close(): void {
    this.fail(new Error('the tree reader was closed'));
  }

  private ask(oid: string): Promise<Buffer> {
    const child = this.process();
    return new Promise((resolve, reject) => {
      this.waiting.push({ oid, resolve, reject });
      this.busy(true);
      child.stdin.write(`${oid}\n`);
    });
  }

  private process(): ChildProcessByStdio<Writable, Readable, null> {
    if (this.child) return this.child;
    const child = storeGitProcess(this.paths, ['cat-file', '--batch']);
    this.child = child;
    this.pending = Buffer.alloc(0);
    child.stdout.on('data', (chunk: Buffer) => this.take(chunk));
    child.on('error', (error) => this.fail(error, child));
    child.on('close', () => this.fail(new Error('git cat-file ended'), child));
    child.stdin.on('error', (error) => this.fail(error, child));
    child.unref();
    this.busy(false);
    return child;
  }

  /** Holds the event loop open (and a deadline) only while an answer is awaited. */
  private busy(yes: boolean): void {
    const child = this.child;
    if (!child) return;
    for (const stream of [child.stdin, child.stdout] as unknown as Socket[]) (yes ? stream.ref : stream.unref)?.call(stream);
    clearTimeout(this.timer);
    this.timer = yes ? setTimeout(() => this.fail(new Error(`git cat-file did not answer in ${READ_MS / 1000} s`)), READ_MS) : undefined;
  }

  /** Answers arrive in the order asked: `<oid> <type> <size>\n<body>\n`, or `<oid> missing\n`. */
  private take(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (;;) {
      const head = this.pending.indexOf(0x0a);
      if (head < 0) return;
      const [oid, type, size] = this.pending.toString('latin1', 0, head).split(' ');
      const waiting = this.waiting[0];
      if (!waiting || oid !== waiting.oid) return this.fail(new Error(`git cat-file answered out of turn (${oid})`));
      if (type === 'missing' || size === undefined) {
        this.pending = this.pending.subarray(head + 1);
        this.waiting.shift();
        waiting.reject(new Error(`the store does not hold ${oid}`));
      } else {
        const length = Number(size);
        if (this.pending.length < head + 1 + length + 1) return;
        const body = Buffer.from(this.pending.subarray(head + 1, head + 1 + length));
        this.pending = this.pending.subarray(head + 1 + length + 1);
        this.waiting.shift();
        if (type === 'tree') waiting.resolve(body);
        else waiting.reject(new Error(`${oid} is a ${type}, not a tree`));
      }
      if (this.waiting.length === 0) this.busy(false);
    }
  }

  private fail(error: Error, child = this.child): void {
    if (child !== this.child || !child) return;
    this.child = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w.reject(error);
    child.stdin.destroy();
    child.stdout.destroy();
    child.kill();
  }
}
