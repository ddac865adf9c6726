import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTurn } from '../actors/agent/turn.js';
import { ContextManager } from '../actors/context/context-manager.js';
import { subagentDispatcher } from '../actors/subagent/dispatcher.js';
import { SUBAGENTS, type SubagentBrief } from '../actors/subagent/protocol.js';
import { SubagentWaves } from '../actors/subagent/wave.js';
import { builtinTools } from '../actors/tool-executor/registry.js';
import { Supervisor } from '../runtime/index.js';
import { startScriptedServer, type ScriptedReply } from '../test/helpers/scripted-server.js';
import { fmt, row } from './stats.js';
import { MODEL_IO } from '../actors/model-io/protocol.js';
import { TOOL_EXECUTOR } from '../actors/tool-executor/protocol.js';
import { toolSettings } from '../test/helpers/tool-settings.js';

/**
 * Subagent waves against a server with a fixed 1 s latency per reply. Each member reads one file
 * and reports (two replies, about 2 s of model time). The wave's wall time (first call started to
 * last report in, spawn and stop of the worker threads included) is set beside the slowest
 * member's own model time (its first request arriving to its last reply done), and beside the
 * sum of the members' times (what running them one after another would cost). Memory: resident
 * memory per idle subagent actor, beside a bare worker-thread actor.
 */
const LATENCY_MS = 1_000;
const SUBAGENT_SYSTEM = 'You are a reika subagent (bench).';
const subagentModule = new URL('../actors/subagent/actor.js', import.meta.url);
const bareModule = new URL('./fixtures/bench-actor.js', import.meta.url);

interface Span {
  first: number;
  last: Promise<number>[];
}

async function wave(supervisor: Supervisor, root: string, serverUrl: string, spans: Map<string, Span>, size: number): Promise<{ wall: number; slowest: number; sum: number }> {
  spans.clear();
  const letters = 'abcd'.slice(0, size).split('');
  let parentRound = 0;
  const parentScript = (): ScriptedReply =>
    parentRound++ === 0 ? { toolCalls: letters.map((l, i) => ({ id: `sub_${i}`, name: 'subagent', arguments: { task: `What does src/${l}.ts export?` } })) } : { content: 'done' };
  currentParent = parentScript;
  const endpoint = { baseUrl: serverUrl, model: 'bench-model', requestTimeoutMs: 0 };
  const brief: SubagentBrief = { root, system: SUBAGENT_SYSTEM, tools: builtinTools.toolsArray('subagent'), endpoint, discover: false, maxTurns: 8, approvals: 'safe', toolSettings: toolSettings(root) };
  const tools = builtinTools.toolsArray('agent');
  const started: number[] = [];
  const ended: number[] = [];
  const scope = `bench-${Math.random()}`;
  await runTurn('survey', {
    router: supervisor,
    turn: scope,
    scope,
    signal: new AbortController().signal,
    endpoint,
    tools,
    toolContext: { root, approvals: 'safe', mode: 'agent', settings: toolSettings(root) },
    context: new ContextManager({ system: 'parent', tools, window: 100_000 }),
    maxRequests: 5,
    wave: new SubagentWaves({ router: supervisor, brief }),
    emit: (event) => {
      if (event.type !== 'tool-call' || event.state.call.name !== 'subagent') return;
      if (event.state.status === 'running') started.push(performance.now());
      if (event.state.status === 'done') ended.push(performance.now());
    },
  });
  if (ended.length !== size) throw new Error(`bench: ${ended.length} of ${size} subagents reported`);
  const members = await Promise.all([...spans.values()].map(async (span) => Math.max(...(await Promise.all(span.last))) - span.first));
  return { wall: Math.max(...ended) - Math.min(...started), slowest: Math.max(...members), sum: members.reduce((a, b) => a + b, 0) };
}

let currentParent: () => ScriptedReply = () => ({ content: 'idle' });

async function residentPerActor(supervisor: Supervisor, module: URL, prefix: string, count: number): Promise<number> {
  const settle = async () => {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 200));
  };
  await settle();
  const before = process.memoryUsage().rss;
  const names = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  await Promise.all(names.map((name) => supervisor.spawn({ name, kind: 'thread', module, restart: false })));
  await settle();
  const after = process.memoryUsage().rss;
  await Promise.all(names.map((name) => supervisor.stop(name)));
  return (after - before) / count;
}

export default async function bench(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'reika-bench-subagent-'));
  mkdirSync(join(root, 'src'));
  for (const l of 'abcd') writeFileSync(join(root, 'src', `${l}.ts`), `export const ${l} = 1;\n`);
  const spans = new Map<string, Span>();
  const server = await startScriptedServer((request) => {
    const messages = request.json.messages as Array<{ role: string; content: string }>;
    if (messages[0]!.content !== SUBAGENT_SYSTEM) return { ...currentParent(), latencyMs: 0 };
    const task = messages[1]!.content;
    const span = spans.get(task) ?? { first: performance.now(), last: [] };
    spans.set(task, span);
    span.last.push(request.outcome.then(() => performance.now()));
    const file = /src\/\w\.ts/.exec(task)![0];
    if (messages.length === 2) return { latencyMs: LATENCY_MS, toolCalls: [{ id: 'read_1', name: 'read', arguments: { path: file } }] };
    return { latencyMs: LATENCY_MS, content: `${file}:1 exports one constant.` };
  });
  const supervisor = new Supervisor();
  try {
    await Promise.all([
      supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: new URL('../actors/model-io/actor.js', import.meta.url) }),
      supervisor.spawn({ name: TOOL_EXECUTOR, kind: 'process', module: new URL('../actors/tool-executor/actor.js', import.meta.url) }),
      supervisor.register(SUBAGENTS, subagentDispatcher(supervisor)),
    ]);
    await wave(supervisor, root, server.url, spans, 1); // warm-up: module cache, connections
    const one = await wave(supervisor, root, server.url, spans, 1);
    const four = await wave(supervisor, root, server.url, spans, 4);
    row('wave of 4: wall ÷ slowest member', `${fmt(four.wall, 0)} ms`, `${fmt(four.slowest, 0)} ms`, four.wall / four.slowest, '≤ 1.2');
    row('wave of 4: wall ÷ members one after another', `${fmt(four.wall, 0)} ms`, `${fmt(four.sum, 0)} ms`, four.wall / four.sum, '≈ 0.25');
    row('wave of 1: wall ÷ its member', `${fmt(one.wall, 0)} ms`, `${fmt(one.slowest, 0)} ms`, one.wall / one.slowest);
    const subagent = await residentPerActor(supervisor, subagentModule, 'mem-subagent/', 4);
    const bare = await residentPerActor(supervisor, bareModule, 'mem-bare/', 4);
    row('memory per idle subagent actor (RSS)', `${fmt(subagent / 1024 / 1024, 1)} MB`, `${fmt(bare / 1024 / 1024, 1)} MB bare`, subagent / bare);
  } finally {
    await supervisor.close();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}
