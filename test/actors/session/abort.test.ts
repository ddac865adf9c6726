import test from 'ava';
import { readFileSync } from 'node:fs';
import { Session } from '../../../actors/session/session.js';
import type { AgentEvent } from '../../../actors/agent/events.js';
import { loadConfig } from '../../../actors/config/load-config.js';
import { startRuntime } from '../../../cli/start-runtime.js';
import type { Envelope } from '../../../runtime/envelope.js';
import { processesIn } from '../../cli/headless-helpers.js';
import { startScriptedServer, type ScriptedReply, type ScriptedRequest } from '../../helpers/scripted-server.js';
import { gitRepo } from '../../helpers/temp.js';

/**
 * SPEC §1, one abort message. One session, three turns, each aborted while its work is in
 * flight: a model stream, a running bash, a wave of four subagents whose own streams are open.
 * A turn's work is never all of these at once (the loop waits for the model before it runs
 * tools, and a wave runs before its response's other calls), so each moment gets its turn.
 * Each abort reaches every actor holding work of the turn exactly once, with no `cancel` on top,
 * and everything ends: results come back cancelled, as data; no stream stays open, no process
 * is left, nothing is asked of the server afterwards.
 */

const LETTERS = ['a', 'b', 'c', 'd'];
const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return `${pid} (gone)`;
  }
};
const isParent = (request: ScriptedRequest) => (request.json.tools as Array<{ function: { name: string } }>).some((tool) => tool.function.name === 'subagent');
const lastUser = (request: ScriptedRequest) => (request.json.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'user').at(-1)!.content as string;
const stall: ScriptedReply = { content: 'Looking at it, '.repeat(40), fault: { type: 'stall', afterBytes: 1_500 } };

test('each abort of a turn sends one abort per actor holding its work and no cancel; every result comes back cancelled and nothing is left running', async (t) => {
  const root = gitRepo({ 'README.md': '# demo\n', ...Object.fromEntries(LETTERS.map((l) => [`src/${l}.ts`, `export const ${l} = 1;\n`])) });
  const stalledSubagents: ScriptedRequest[] = [];
  let wave!: () => void;
  const waveInFlight = new Promise<void>((resolve) => (wave = resolve));
  const server = await startScriptedServer((request) => {
    if (!isParent(request)) {
      // Every subagent streams part of a reply and then hangs until the client leaves.
      if (stalledSubagents.push(request) === LETTERS.length) wave();
      return stall;
    }
    const prompt = lastUser(request);
    if (prompt.startsWith('stream')) return stall;
    if (prompt.startsWith('bash')) return { toolCalls: [{ id: 'bash1', name: 'bash', arguments: { command: 'echo started; tail -f README.md' } }] };
    return { toolCalls: LETTERS.map((l, i) => ({ id: `sub${i}`, name: 'subagent', arguments: { task: `Look at src/${l}.ts.` } })) };
  });
  const stops: string[] = [];
  const onDeliver = (to: string, message: Envelope) => {
    if (message.type === 'abort' || message.type === 'cancel') stops.push(`${message.type} → ${to}`);
  };
  const runtime = startRuntime({ approve: () => ({ decision: 'decline', note: 'declined: test' }), cwd: root, supervisor: { onDeliver } });
  t.teardown(async () => {
    await runtime.close();
    await server.close();
  });
  const config = loadConfig({ cwd: root, home: root, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'm', REIKA_CONTEXT_WINDOW: '32768' } });
  const session = new Session({ runtime, config, cwd: root, headless: true });

  /** Runs a turn and aborts it once `underWay` says its work is in flight. */
  const abortedTurn = async (prompt: string, underWay: (seen: (test: (event: AgentEvent) => boolean) => Promise<void>) => Promise<void>) => {
    const events: AgentEvent[] = [];
    const waiters = new Set<() => void>();
    const unsubscribe = session.subscribe((event) => {
      events.push(event);
      for (const waiter of waiters) waiter();
    });
    const seen = (test: (event: AgentEvent) => boolean) =>
      new Promise<void>((resolve) => {
        const waiter = () => events.some(test) && resolve();
        waiters.add(waiter);
        waiter();
      });
    stops.length = 0;
    const turn = session.run(prompt);
    await underWay(seen);
    const requests = server.requests.length;
    session.abort('the user pressed Esc');
    const result = await turn;
    unsubscribe();
    t.is(server.requests.length, requests, `${prompt}: nothing was asked of the server after the abort`);
    return { result, stops: [...stops].sort() };
  };

  // The engine detection (model-io `detect`, beside the bootstrap) asks the server too; it is not
  // the turn's work: let it finish first so that the count below sees only what the turn asks.
  await session.ready;
  await session.engineDetected();
  const streamed = await abortedTurn('stream an answer', (seen) => seen((e) => e.type === 'text-delta'));
  t.is(streamed.result.status, 'aborted');
  t.deepEqual(streamed.stops, ['abort → model-io'], 'a model stream: one abort to model-io');
  t.is(await server.chatRequests()[0]!.outcome, 'client-closed');

  const bashed = await abortedTurn('bash: run the command', (seen) => seen((e) => e.type === 'tool-output' && e.text.includes('started')));
  t.is(bashed.result.status, 'aborted');
  t.deepEqual(bashed.stops, ['abort → tool-executor'], 'a running bash: one abort to the tool executor');
  t.deepEqual(bashed.result.toolCalls.map((c) => c.status), ['cancelled']);

  const surveyed = await abortedTurn('survey the four sources', () => waveInFlight);
  t.is(surveyed.result.status, 'aborted');
  t.deepEqual(
    surveyed.stops,
    ['abort → model-io', 'abort → subagent/1', 'abort → subagent/2', 'abort → subagent/3', 'abort → subagent/4', 'abort → subagents'],
    'a wave: one abort to the dispatcher, to each subagent and to model-io (which holds their four streams)',
  );
  t.deepEqual(surveyed.result.toolCalls.map((c) => c.status), ['cancelled', 'cancelled', 'cancelled', 'cancelled'], 'each subagent call ends cancelled, as data');
  t.deepEqual(await Promise.all(stalledSubagents.map((r) => r.outcome)), ['client-closed', 'client-closed', 'client-closed', 'client-closed'], 'the four streams were closed');
  // The checkpoint store's own git maintenance may still run in the project folder: not the command's.
  const left = processesIn(root).map(commandOf).filter((command) => /tail|echo started|bwrap|bash/.test(command));
  t.deepEqual(left, [], 'the bash command and its tail are gone');
  t.false(['subagent/1', 'subagent/2', 'subagent/3', 'subagent/4'].some((name) => runtime.supervisor.has(name)), 'no subagent actor is left');
});
