import test from 'ava';
import { encodeFrame, FrameDecoder, pack } from '../../runtime/codec.js';
import type { Envelope } from '../../runtime/envelope.js';

/**
 * Issue 21 soak: msgpackr grows the one buffer it packs into to fit the largest message and keeps
 * it. A 2 MB tool argument left 24 MB behind in the main process for the rest of the session.
 */

test('after a large message the codec packs into a small buffer again', (t) => {
  const huge: Envelope = { type: 'request', id: 'big', from: 'supervisor', to: 'tool-executor', body: { command: `echo ${'y'.repeat(3 * 1024 * 1024)}` } };
  const frame = encodeFrame(huge);
  const decoded: Envelope[] = [];
  new FrameDecoder((message) => decoded.push(message)).push(frame);
  t.deepEqual(decoded, [huge], 'the large message itself is whole');
  const small = pack({ type: 'ping', seq: 1 });
  t.true(small.buffer.byteLength <= 64 * 1024, `the next message is packed into a ${small.buffer.byteLength}-byte buffer`);
});

test('small messages keep sharing one buffer', (t) => {
  const one = pack({ type: 'ping', seq: 1 });
  const two = pack({ type: 'ping', seq: 2 });
  t.is(one.buffer, two.buffer);
});
