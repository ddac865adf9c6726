import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODEL_IO, type ChatMessage, type Endpoint, type ModelIoRequest } from '../actors/model-io/protocol.js';
import { builtinTools } from '../actors/tool-executor/registry.js';
import { client, Supervisor } from '../runtime/index.js';
import { embeddedUnavailable } from '../test/helpers/embedded.js';
import { writeTinyModel } from '../test/helpers/gguf-model.js';
import { fmt, row, summarize } from './stats.js';
import { BARE_ECHO, echoLatencies, Pty, startup } from './tui.bench.js';

// The embedded engine (llama.cpp in the model-io thread) on the tiny random-weight test model:
//
// - load time: a fresh model-io thread's `discover` (node-llama-cpp, its binary, the weights, the
//   main context); reference: the same thread's spawn alone;
// - tokens evaluated per request across a 10-request session (forced calls and answers, each
//   request the previous one plus its reply and the tool result), against the ideal — exactly the
//   appended tokens — and against a server without a prefix cache (the whole prompt);
// - key echo in the terminal while the model generates (a 4,000-character answer, sampled token
//   by token under a grammar); reference: a bare `node` echo program through the same pty.
//
// Figures from a busy 2-core machine: compare ratios, not milliseconds.

const actorModule = new URL('../actors/model-io/actor.js', import.meta.url);
const mainJs = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const LOADS = 5;
const KEYS = 60;

export default async function (): Promise<void> {
  const unavailable = await embeddedUnavailable();
  if (unavailable) {
    process.stdout.write(`skipped: node-llama-cpp cannot load here (${unavailable})\n`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'reika-embedded-bench-'));
  try {
    const model = writeTinyModel(join(dir, 'tiny.gguf'));
    const endpoint: Endpoint = { baseUrl: 'embedded', model, requestTimeoutMs: 0, engine: 'embedded', embedded: { threads: 1, contextWindow: 16_384 } };
    await loadTimes(endpoint);
    await session(endpoint, dir);
    await keyEcho(model, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function loadTimes(endpoint: Endpoint): Promise<void> {
  const spawns: number[] = [];
  const loads: number[] = [];
  const engineLoads: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const supervisor = new Supervisor();
    try {
      let started = performance.now();
      await supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: actorModule });
      spawns.push(performance.now() - started);
      started = performance.now();
      const reply = await client(supervisor, MODEL_IO).request({ type: 'discover', endpoint } satisfies ModelIoRequest);
      loads.push(performance.now() - started);
      engineLoads.push(reply.engine!.loadMs);
    } finally {
      await supervisor.close();
    }
  }
  const load = summarize(loads);
  const spawn = summarize(spawns);
  row('tiny model load in a fresh thread (median)', `${fmt(load.p50)} ms`, `${fmt(spawn.p50)} ms`, load.p50 / spawn.p50);
  process.stdout.write(`(${LOADS} loads; the engine's own loadMs median ${fmt(summarize(engineLoads).p50)} ms; reference: spawning the model-io thread)\n`);
}

async function session(endpoint: Endpoint, dir: string): Promise<void> {
  const steps: unknown[] = [];
  for (let i = 0; i < 10; i++) steps.push(i % 3 === 2 ? { answer: `Round ${i + 1}: the file holds ${i + 1} lines.` } : { call: 'read', arguments: { path: `src/file${i}.ts` } });
  const script = join(dir, 'session.json');
  writeFileSync(script, JSON.stringify(steps));
  process.env.REIKA_EMBEDDED_SCRIPT = script;
  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: actorModule });
    delete process.env.REIKA_EMBEDDED_SCRIPT;
    const tools = builtinTools.toolsArray('agent');
    let messages: ChatMessage[] = [
      { role: 'system', content: 'You are reika, a coding agent working in the user\'s project through tools.' },
      { role: 'user', content: 'Read the source files one by one and say what each holds.' },
    ];
    const rounds: Array<{ prompt: number; cached: number; evaluated: number; ideal: number }> = [];
    let previous: { prompt: number; completion: number } | undefined;
    for (let i = 0; i < 10; i++) {
      const reply = await client(supervisor, MODEL_IO).request({ type: 'chat', endpoint, messages, tools, maxTokens: 200 } satisfies ModelIoRequest);
      const usage = reply.usage!;
      rounds.push({ prompt: usage.promptTokens, cached: usage.cachedTokens, evaluated: usage.prefilledTokens ?? NaN, ideal: previous ? usage.promptTokens - previous.prompt - previous.completion : usage.promptTokens });
      previous = { prompt: usage.promptTokens, completion: usage.completionTokens };
      messages = [...messages, { role: 'assistant', content: reply.text, ...(reply.toolCalls.length ? { tool_calls: reply.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) } : {}) }];
      for (const call of reply.toolCalls) messages.push({ role: 'tool', tool_call_id: call.id, content: `read ${String(call.arguments.path)}: 3 lines\n1 | export const n = ${i};\n2 |\n3 | // end` });
      if (reply.toolCalls.length === 0) messages.push({ role: 'user', content: `Go on with the next file (${i + 2}).` });
    }
    process.stdout.write('request  prompt  cached  evaluated  ideal (appended)\n');
    rounds.forEach((r, i) => process.stdout.write(`${String(i + 1).padStart(7)}  ${String(r.prompt).padStart(6)}  ${String(r.cached).padStart(6)}  ${String(r.evaluated).padStart(9)}  ${String(r.ideal).padStart(5)}\n`));
    const later = rounds.slice(1);
    const evaluated = later.reduce((a, r) => a + r.evaluated, 0);
    const ideal = later.reduce((a, r) => a + r.ideal, 0);
    const whole = later.reduce((a, r) => a + r.prompt, 0);
    row('tokens evaluated, requests 2–10', String(evaluated), `ideal ${ideal}`, evaluated / ideal, '×1.00');
    row('  vs a server without prefix cache', String(evaluated), `${whole}`, evaluated / whole);
  } finally {
    await supervisor.close();
  }
}

async function keyEcho(model: string, dir: string): Promise<void> {
  if (!Pty.available()) {
    process.stdout.write('key echo skipped: this part needs util-linux `script` to get a pseudo-terminal\n');
    return;
  }
  const project = mkdtempSync(join(dir, 'project-'));
  writeFileSync(join(project, 'index.ts'), 'export const answer = 42;\n');
  const story = Array.from({ length: 80 }, (_, i) => `Line ${i + 1} of a long answer that the model writes token by token.`).join(' ');
  const script = join(dir, 'echo.json');
  writeFileSync(script, JSON.stringify([{ answer: story }]));
  const env = { ...process.env, HOME: mkdtempSync(join(dir, 'home-')), TERM: 'xterm-256color', REIKA_MODEL: model, REIKA_THREADS: '1', REIKA_CONTEXT_WINDOW: '16384', REIKA_EMBEDDED_SCRIPT: script };
  const run = await startup([process.execPath, mainJs], project, env);
  const offset = run.pty.length;
  run.pty.write('\x15tell me\r');
  // Generating: the first words of the answer are on screen.
  await run.pty.waitFor((text) => text.includes('Line 1 of'), offset, 60_000);
  let endedAt = Infinity;
  run.pty.waitFor((text) => text.includes('Line 80 of'), offset, 120_000).then((at) => (endedAt = at), () => {});
  const during = await echoLatencies(run.pty, KEYS, '', undefined);
  const stillGenerating = performance.now() < endedAt;
  await run.pty.close();
  const ref = await startup([process.execPath, '-e', BARE_ECHO], project, env);
  const reference = await echoLatencies(ref.pty, KEYS, 'q');
  await ref.pty.close();
  const echo = summarize(during);
  const refEcho = summarize(reference);
  row('key echo while the model generates, p50', `${fmt(echo.p50)} ms`, `${fmt(refEcho.p50)} ms`, echo.p50 / refEcho.p50);
  row('key echo while the model generates, p99', `${fmt(echo.p99)} ms`, `${fmt(refEcho.p99)} ms`, echo.p99 / refEcho.p99, '≤ 16 ms');
  process.stdout.write(`(${KEYS} keys typed after the answer began; ${stillGenerating ? 'the model was still generating after the last one' : 'the answer had ended before the last key'})\n`);
}
