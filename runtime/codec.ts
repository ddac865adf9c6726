// msgpackr's plain-JavaScript entry ('msgpackr/pack' is the whole codec under Node): the main
// entry also loads the optional native addon (msgpackr-extract), ~1 MB of RSS in each process
// that imports it — the main one and the tool executor (54.6 → 53.6 MB idle) — for no gain
// measured (bench/msgpack-native.bench.ts).
import { Packr } from 'msgpackr/pack';
import type { Envelope } from './envelope.js';

/**
 * Length-prefixed msgpackr frames for byte streams (the child-process transport): a 4-byte
 * big-endian length, then one msgpack-encoded envelope.
 */
const packr = new Packr({ useRecords: false, moreTypes: false });

/**
 * msgpackr packs into one buffer it grows to fit (to ~4× the largest message) and keeps for good.
 * After a message this large the buffer is given back: the message's bytes stay with the caller
 * until it is done with them, and the next message starts a small buffer. Kept, one 2 MB command
 * left 24 MB in the main process's heap for the rest of the session.
 */
const KEEP_BUFFER_BYTES = 1 << 20;

function packed(value: unknown): Buffer {
  const body = packr.pack(value);
  if (body.length > KEEP_BUFFER_BYTES) packr.useBuffer(Buffer.allocUnsafeSlow(8192));
  return body;
}

export function encodeFrame(message: Envelope): Buffer {
  const body = packed(message);
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}

/** Incremental decoder: feed it chunks cut anywhere, it calls `onMessage` per whole frame. */
export class FrameDecoder {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly onMessage: (message: Envelope) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let offset = 0;
    while (this.buffer.length - offset >= 4) {
      const length = this.buffer.readUInt32BE(offset);
      if (this.buffer.length - offset - 4 < length) break;
      const body = this.buffer.subarray(offset + 4, offset + 4 + length);
      offset += 4 + length;
      this.onMessage(packr.unpack(body) as Envelope);
    }
    this.buffer = offset === this.buffer.length ? Buffer.alloc(0) : this.buffer.subarray(offset);
  }
}

export function pack(value: unknown): Buffer {
  return packed(value);
}

export function unpack(buffer: Uint8Array): unknown {
  return packr.unpack(buffer);
}
