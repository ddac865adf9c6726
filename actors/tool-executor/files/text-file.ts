import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

// Reading text without trusting it: binary sniffing, UTF-8 with a Latin-1 fallback, and a line
// stream that pages a file of any size with bounded memory (long lines are clipped, not kept).

/** How many leading bytes decide "binary" (git looks at the first 8000 too). */
export const SNIFF_BYTES = 8000;

/** True when the bytes look binary: a NUL byte, as git decides. */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, SNIFF_BYTES).includes(0);
}

/** Reads the first bytes of a file to decide whether it is binary. */
export async function sniffBinary(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return looksBinary(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8; bytes that are not valid UTF-8 are read as Latin-1 instead (and said so). */
export function decodeText(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'latin1' } {
  try {
    return { text: strictUtf8.decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'), encoding: 'latin1' };
  }
}

/**
 * Called per line (1-indexed) with its bytes, without the newline (a trailing CR is kept),
 * clipped to `maxLineBytes`; `fullBytes` is the line's real length. Return false to stop early.
 */
export type LineVisitor = (line: Buffer, number: number, fullBytes: number) => boolean | void;

export interface LineStreamResult {
  /** Lines seen (all of them unless the visitor stopped early or the signal fired). */
  lines: number;
  stopped: boolean;
  aborted: boolean;
}

/** Streams a file line by line; memory stays bounded by the chunk size plus one clipped line. */
export async function forEachLine(path: string, visit: LineVisitor, options: { signal?: AbortSignal; maxLineBytes?: number } = {}): Promise<LineStreamResult> {
  const maxLineBytes = options.maxLineBytes ?? 4096;
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  let number = 0;
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let carryFull = 0;
  let stopped = false;
  const emit = (piece: Buffer): boolean => {
    number++;
    let line = piece;
    let full = piece.length;
    if (carry.length > 0) {
      full = carryFull + piece.length;
      const room = Math.max(0, maxLineBytes - carryBytes);
      line = Buffer.concat([...carry, piece.subarray(0, room)]);
      carry = [];
      carryBytes = 0;
      carryFull = 0;
    } else if (line.length > maxLineBytes) {
      line = line.subarray(0, maxLineBytes);
    }
    return visit(line, number, full) !== false;
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (options.signal?.aborted) return { lines: number, stopped: true, aborted: true };
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(10, start);
        if (newline === -1) break;
        if (!emit(chunk.subarray(start, newline))) {
          stopped = true;
          break;
        }
        start = newline + 1;
      }
      if (stopped) break;
      if (start < chunk.length) {
        const rest = chunk.subarray(start);
        if (carryBytes < maxLineBytes) {
          const kept = rest.subarray(0, maxLineBytes - carryBytes);
          carry.push(Buffer.from(kept));
          carryBytes += kept.length;
        }
        carryFull += rest.length;
      }
    }
    if (!stopped && carryFull > 0) stopped = !emit(Buffer.alloc(0));
  } finally {
    stream.destroy();
  }
  return { lines: number, stopped, aborted: false };
}

/** {@link forEachLine} over text already in memory (an editor's buffer): the same lines, numbers and clipping. */
export function forEachTextLine(text: string, visit: LineVisitor, options: { maxLineBytes?: number } = {}): LineStreamResult {
  const maxLineBytes = options.maxLineBytes ?? 4096;
  const lines = text.split('\n');
  // A final newline ends the last line; it does not start another.
  if (lines.at(-1) === '') lines.pop();
  let number = 0;
  for (const line of lines) {
    const bytes = Buffer.from(line, 'utf8');
    if (visit(bytes.length > maxLineBytes ? bytes.subarray(0, maxLineBytes) : bytes, ++number, bytes.length) === false) return { lines: number, stopped: true, aborted: false };
  }
  return { lines: number, stopped: false, aborted: false };
}

/** Strips one trailing CR (a CRLF file) from a decoded line. */
export function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
