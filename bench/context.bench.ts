import { performance } from 'node:perf_hooks';
import { ContextManager } from '../actors/context/context-manager.js';
import type { ToolSchema } from '../actors/model-io/protocol.js';
import { seededRandom } from '../test/helpers/scripted-server.js';
import { fmt, row, summarize } from './stats.js';

// The context policy's own cost per round in a 300-round session at a 16k window (reads, greps,
// edits, commands, a 200 KB output every 23 rounds): adding the call and its result, preparing the
// request (compaction events included) and recording the server's count. Its reference is what
// the same round costs anyway: turning the prepared request into the JSON that is sent. The
// session's compaction events, its largest request and the requests over the window are printed
// against their targets.

const WINDOW = 16_384;
const ROUNDS = 300;
const tools: ToolSchema[] = ['read', 'grep', 'edit', 'bash', 'write', 'list', 'glob'].map((name) => ({
  type: 'function',
  function: { name, description: `The ${name} tool. ${'It does one thing well. '.repeat(20)}`, parameters: { type: 'object', properties: { path: { type: 'string' } } } },
}));
const system = `You are reika.\n${'Project facts and rules. '.repeat(300)}`;

function payload(n: number, size: number): string {
  const line = `${n}: export function step${n}(input: string): string { return input.trim(); }\n`;
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}

/**
 * An engine's count, the same for both policies (not their own sizes): ~3.3 characters a token, a
 * digit or a character outside ASCII one token each (Qwen's tokenizer), plus 6 per message.
 */
function engineTokens(messages: unknown[]): number {
  const json = JSON.stringify(messages);
  let other = 0;
  let heavy = 0;
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (code > 0x7f || (code >= 0x30 && code <= 0x39)) heavy++;
    else other++;
  }
  return Math.ceil(other / 3.3 + heavy) + 6 * messages.length;
}

/**
 * Times each round of one session: the policy's part, and turning the prepared request into the
 * JSON sent (the reference). Returns per-round ms of each, the events and the largest request.
 */
function session(context: ContextManager): { ms: number[]; serialize: number[]; events: number; largest: number; over: number } {
  const random = seededRandom(5);
  const bodies = Array.from({ length: ROUNDS + 1 }, (_, n) => (n % 23 === 0 ? payload(n, 200_000) : payload(n, random() < 0.5 ? 600 + Math.floor(random() * 1_600) : 150 + Math.floor(random() * 600))));
  const ms: number[] = [];
  const serialize: number[] = [];
  let events = 0;
  let largest = 0;
  let over = 0;
  context.addUser('Fix the failing tests; read what you need first.');
  for (let n = 1; n <= ROUNDS; n++) {
    const start = performance.now();
    const prepared = context.prepare();
    const prepareMs = performance.now() - start;
    const sending = performance.now();
    JSON.stringify({ messages: prepared.messages, tools, stream: true });
    serialize.push(performance.now() - sending);
    // The engine's count is not the policy's cost.
    const engine = engineTokens(prepared.messages);
    const resume = performance.now();
    context.recordUsage({ promptTokens: engine, completionTokens: 30, cachedTokens: 0 });
    context.addAssistant('', [{ id: `call_${n}`, name: 'read', arguments: { path: `src/m${n % 40}.ts` }, source: 'native' }]);
    context.addToolResult({ callId: `call_${n}`, name: 'read', summary: `read src/m${n % 40}.ts`, payload: bodies[n]! });
    ms.push(prepareMs + performance.now() - resume);
    if (prepared.compaction) events++;
    largest = Math.max(largest, engine);
    if (engine + (prepared.maxTokens ?? 0) > WINDOW) over++;
  }
  return { ms, serialize, events, largest, over };
}

export default async function (): Promise<void> {
  // The sessions are deterministic: each round's figure is its fastest of the runs, which takes
  // the shared machine's noise out (the events and the 200 KB rounds stay what they cost).
  const runs = 7;
  const policy: number[][] = [];
  const serialize: number[][] = [];
  let last: ReturnType<typeof session> | undefined;
  for (let r = 0; r < runs; r++) {
    last = session(new ContextManager({ system, tools, window: WINDOW }));
    policy.push(last.ms);
    serialize.push(last.serialize);
  }
  const fastest = (runs: number[][]) => runs[0]!.map((_, i) => Math.min(...runs.map((ms) => ms[i]!)));
  const a = summarize(fastest(policy));
  const b = summarize(fastest(serialize));
  console.log(`${ROUNDS} rounds at a ${WINDOW.toLocaleString('en-US')}-token window; each round's fastest of ${runs} runs; ref: JSON of the request sent`);
  row('context policy per round, median', `${fmt(a.p50 * 1000, 0)} µs`, `${fmt(b.p50 * 1000, 0)} µs`, a.p50 / b.p50);
  row('context policy per round, p99', `${fmt(a.p99 * 1000, 0)} µs`, `${fmt(b.p99 * 1000, 0)} µs`, a.p99 / b.p99);
  row('context policy per round, max', `${fmt(a.max * 1000, 0)} µs`, `${fmt(b.max * 1000, 0)} µs`, a.max / b.max);
  row('compaction events in the session', `${last!.events}`, '-', undefined);
  row('largest request (engine tokens)', `${last!.largest}`, '-', undefined, `≤ ${WINDOW}`);
  row('requests over the window', `${last!.over}`, '-', undefined, '0');
}
