import { Worker } from 'node:worker_threads';
import { pack, unpack } from '../runtime/codec.js';
import { client, Supervisor } from '../runtime/index.js';
import { benchActor } from './fixtures/bench-actor.js';
import { fmt, row, summarize } from './stats.js';

/**
 * The actor runtime: round trips and throughput through the supervisor beside a raw MessagePort
 * ping-pong, structured clone against msgpackr buffers, and abort fan-out latency.
 */
const ROUND_TRIPS = 20_000;
const BLAST = 100_000;
const actorModule = new URL('./fixtures/bench-actor.js', import.meta.url);
const message = { type: 'echo' as const, value: { text: 'hello from the bench', n: 42, list: [1, 2, 3] } };

async function rawPingPong(encode: boolean): Promise<{ samples: number[]; perSecond: number }> {
  const worker = new Worker(new URL('./fixtures/raw-echo-worker.js', import.meta.url));
  const samples: number[] = [];
  const roundTrip = () =>
    new Promise<void>((resolve) => {
      worker.once('message', (reply: unknown) => {
        if (encode) unpack(reply as Uint8Array);
        resolve();
      });
      if (encode) {
        const buffer = pack(message);
        const copy = new Uint8Array(buffer);
        worker.postMessage(copy, [copy.buffer]);
      } else worker.postMessage(message);
    });
  for (let i = 0; i < 1000; i++) await roundTrip();
  const started = performance.now();
  for (let i = 0; i < ROUND_TRIPS; i++) {
    const t = performance.now();
    await roundTrip();
    samples.push(performance.now() - t);
  }
  const perSecond = ROUND_TRIPS / ((performance.now() - started) / 1000);
  await worker.terminate();
  return { samples, perSecond };
}

async function supervisorRoundTrips(supervisor: Supervisor, name: string, count: number): Promise<number[]> {
  const samples: number[] = [];
  const actor = client(supervisor, benchActor(name));
  for (let i = 0; i < 500; i++) await actor.request(message);
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await actor.request(message);
    samples.push(performance.now() - t);
  }
  return samples;
}

export default async function bench(): Promise<void> {
  const clone = await rawPingPong(false);
  const packed = await rawPingPong(true);
  const rawStats = summarize(clone.samples);
  const packedStats = summarize(packed.samples);
  row('raw port round trip p50, structured clone', `${fmt(rawStats.p50 * 1000, 0)} µs`, `${fmt(packedStats.p50 * 1000, 0)} µs msgpackr`, rawStats.p50 / packedStats.p50);

  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: 'thread-a', kind: 'thread', module: actorModule });
    await supervisor.spawn({ name: 'thread-b', kind: 'thread', module: actorModule });
    await supervisor.spawn({ name: 'proc', kind: 'process', module: actorModule });

    const thread = summarize(await supervisorRoundTrips(supervisor, 'thread-a', ROUND_TRIPS));
    row('supervisor → thread actor round trip p50', `${fmt(thread.p50 * 1000, 0)} µs`, `${fmt(rawStats.p50 * 1000, 0)} µs raw`, thread.p50 / rawStats.p50, '≤ 2×');
    row('supervisor → thread actor round trip p99', `${fmt(thread.p99 * 1000, 0)} µs`, `${fmt(rawStats.p99 * 1000, 0)} µs raw`, thread.p99 / rawStats.p99);
    const proc = summarize(await supervisorRoundTrips(supervisor, 'proc', ROUND_TRIPS / 4));
    row('supervisor → process actor round trip p50', `${fmt(proc.p50 * 1000, 0)} µs`, `${fmt(rawStats.p50 * 1000, 0)} µs raw`, proc.p50 / rawStats.p50);
    row('supervisor → process actor round trip p99', `${fmt(proc.p99 * 1000, 0)} µs`, `${fmt(rawStats.p99 * 1000, 0)} µs raw`, proc.p99 / rawStats.p99);

    const blastMs = await client(supervisor, benchActor('thread-a')).request({ type: 'blast', to: 'thread-b', count: BLAST, window: 256 });
    // Each request is two routed messages (request and reply), each crossing the supervisor.
    const messagesPerSecond = (BLAST * 2) / (blastMs / 1000);
    row('thread → thread via supervisor, messages/s', fmt(messagesPerSecond, 0), `${fmt(clone.perSecond * 2, 0)} raw seq`, messagesPerSecond / (clone.perSecond * 2), '≥ 100,000');

    const waiters = Array.from({ length: 8 }, (_, i) => `waiter-${i}`);
    await Promise.all(waiters.map((name) => supervisor.spawn({ name, kind: 'thread', module: actorModule })));
    const fanout: number[] = [];
    for (let round = 0; round < 200; round++) {
      const scope = `turn-${round}`;
      const pending = waiters.map((name) => client(supervisor, benchActor(name)).request({ type: 'wait' }, { scope }));
      // Every waiter holds its request once an echo sent after it has come back.
      await Promise.all(waiters.map((name) => client(supervisor, benchActor(name)).request({ type: 'echo', value: 0 })));
      const t = performance.now();
      supervisor.abort(scope);
      await Promise.all(pending);
      fanout.push(performance.now() - t);
    }
    const abortStats = summarize(fanout);
    row('abort fan-out to 8 thread actors p50 (all replied)', `${fmt(abortStats.p50, 2)} ms`, `${fmt(rawStats.p50, 2)} ms raw rt`, abortStats.p50 / rawStats.p50);
    row('abort fan-out to 8 thread actors p99', `${fmt(abortStats.p99, 2)} ms`, `${fmt(rawStats.p99, 2)} ms raw rt`, abortStats.p99 / rawStats.p99, '≤ 5 ms');
  } finally {
    await supervisor.close();
  }
}
