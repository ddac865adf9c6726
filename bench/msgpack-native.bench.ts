import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pack, unpack } from '../runtime/codec.js';
import { client, Supervisor } from '../runtime/index.js';
import { benchActor } from './fixtures/bench-actor.js';
import { fmt, row, summarize } from './stats.js';

/**
 * Does msgpackr's native unpack (the optional `msgpackr-extract` package) pay for its install
 * script? The same measurements run twice in fresh processes, once with the native addon and once
 * with `MSGPACKR_NATIVE_ACCELERATION_DISABLED=true`: process-actor round trips (the transport that
 * uses msgpackr frames) for a small tool call and a tool result the size of a long file read, and
 * the codec's unpack alone. reika itself imports msgpackr's plain entry (runtime/codec.ts), which
 * loads no addon; this bench imports the main entry in its own process, which turns the addon on
 * for the codec there (the child actor's side stays JavaScript).
 */
const ROUND_TRIPS = 4000;
const small = { type: 'echo' as const, value: { type: 'run', id: 'k3J9x0aPq', name: 'read', arguments: { path: 'src/index.ts' } } };
const lines = Array.from({ length: 800 }, (_, i) => `${String(i + 1).padStart(5)}\t  const value${i} = compute(input, ${i}); // a line of a source file`);
const large = { type: 'echo' as const, value: { status: 'done', summary: 'all 800 lines', payload: lines.join('\n') } };

interface Figures {
  native: boolean;
  smallP50: number;
  smallP99: number;
  largeP50: number;
  largeP99: number;
  unpackSmallUs: number;
  unpackLargeUs: number;
}

async function measure(): Promise<Figures> {
  const { isNativeAccelerationEnabled } = await import('msgpackr');
  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: 'proc', kind: 'process', module: new URL('./fixtures/bench-actor.js', import.meta.url) });
    const actor = client(supervisor, benchActor('proc'));
    const roundTrips = async (message: typeof small | typeof large, count: number) => {
      for (let i = 0; i < 200; i++) await actor.request(message);
      const samples: number[] = [];
      for (let i = 0; i < count; i++) {
        const t = performance.now();
        await actor.request(message);
        samples.push(performance.now() - t);
      }
      return summarize(samples);
    };
    const smallStats = await roundTrips(small, ROUND_TRIPS);
    const largeStats = await roundTrips(large, ROUND_TRIPS / 4);
    const unpackUs = (value: unknown, count: number) => {
      const buffer = pack(value);
      for (let i = 0; i < 500; i++) unpack(buffer);
      const t = performance.now();
      for (let i = 0; i < count; i++) unpack(buffer);
      return ((performance.now() - t) * 1000) / count;
    };
    return {
      native: isNativeAccelerationEnabled,
      smallP50: smallStats.p50,
      smallP99: smallStats.p99,
      largeP50: largeStats.p50,
      largeP99: largeStats.p99,
      unpackSmallUs: unpackUs(small, 100_000),
      unpackLargeUs: unpackUs(large, 5_000),
    };
  } finally {
    await supervisor.close();
  }
}

function inChild(disabled: boolean): Figures {
  const env = { ...process.env };
  if (disabled) env.MSGPACKR_NATIVE_ACCELERATION_DISABLED = 'true';
  else delete env.MSGPACKR_NATIVE_ACCELERATION_DISABLED;
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--measure'], { env, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as Figures;
}

export default async function bench(): Promise<void> {
  const native = inChild(false);
  const js = inChild(true);
  if (!native.native) process.stdout.write('(msgpackr-extract does not load here: both columns are the JavaScript unpack)\n');
  const us = (ms: number) => `${fmt(ms * 1000, 0)} µs`;
  row('process actor round trip p50, small, native', us(native.smallP50), `${us(js.smallP50)} js`, native.smallP50 / js.smallP50);
  row('process actor round trip p99, small, native', us(native.smallP99), `${us(js.smallP99)} js`, native.smallP99 / js.smallP99);
  row('process actor round trip p50, 55 KB, native', us(native.largeP50), `${us(js.largeP50)} js`, native.largeP50 / js.largeP50);
  row('process actor round trip p99, 55 KB, native', us(native.largeP99), `${us(js.largeP99)} js`, native.largeP99 / js.largeP99);
  row('unpack, small tool call, native', `${fmt(native.unpackSmallUs, 2)} µs`, `${fmt(js.unpackSmallUs, 2)} µs js`, native.unpackSmallUs / js.unpackSmallUs);
  row('unpack, 55 KB tool result, native', `${fmt(native.unpackLargeUs, 1)} µs`, `${fmt(js.unpackLargeUs, 1)} µs js`, native.unpackLargeUs / js.unpackLargeUs);
}

if (process.argv[2] === '--measure') {
  process.stdout.write(`${JSON.stringify(await measure())}\n`);
  process.exit(0);
}
