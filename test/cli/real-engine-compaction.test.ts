import test from 'ava';
import { orderProblem } from '../actors/context/message-order.js';
import { realEngine, startLlamaServer, type RealEngine } from '../helpers/llama-server.js';
import { startScriptedServer, type WireJson } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/**
 * Issue 33's acceptance, through a real engine: `reika -p` runs 80 rounds of `read` calls, decided
 * by a scripted model, while every request it sends also goes to a real llama-server (the tiny
 * qwen2 GGUF with Qwen2's tokenizer and Qwen2.5's template, see helpers/llama-server.ts) for its
 * prompt to be processed with one token of output. The engine's own figures come back to reika in
 * the reply (`timings`, `usage`), so reika calibrates on the real token counts and learns the
 * window from the real `/props`, as it does in use.
 *
 * Measured per request: prompt tokens, tokens taken from the cache (`cache_n`) and prefilled
 * (`prompt_n`). Re-prefilled = what the engine prefilled beyond what was new to it: at a
 * compaction event, the request's tokens less those through the kept history (rendered by the
 * engine's `/apply-template` and counted by its `/tokenize`), which the engine held; elsewhere,
 * beyond what the request appended. Refused = the engine answered an error, or the prompt plus
 * reika's max_tokens did not fit the window (what a strict engine refuses).
 */

const ROUNDS = 80;
const TASK = 'Go through src/ file by file and read each part; report what each module does.';
const REUSE = 64;

function project(): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 30; i++) {
    const lines = Array.from({ length: 160 }, (_, n) => `  const value${n} = parse${i}(input[${n}]) ?? defaults.value${n}; // module ${i}, step ${n}`);
    tree[`src/module${i}.ts`] = `export function run${i}(input: string[]): number {\n${lines.join('\n')}\n  return 0;\n}\n`;
  }
  return tree;
}

interface SessionFigures {
  window: number;
  cacheReuse: number;
  requests: number;
  refused: string[];
  events: number;
  promptTokens: number;
  prefilled: number;
  /** Prefilled again at compaction events (tokens the engine held before the event). */
  reprefilledAtEvents: number;
  /** Prefilled beyond what was appended, outside events (the engine dropped its cache). */
  reprefilledElsewhere: number;
  /** Per event: tokens kept verbatim (held by the engine) and how many of them it prefilled again. */
  eventDetails: Array<{ request: number; held: number; prefilled: number; prompt: number }>;
  problems: string[];
}

async function post(origin: string, path: string, body: unknown): Promise<WireJson> {
  const answer = await fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await answer.text();
  if (!answer.ok) throw Object.assign(new Error(`${path}: ${answer.status} ${text.slice(0, 300)}`), { status: answer.status });
  return JSON.parse(text);
}

/** Runs the 80-round session through a fresh llama-server with `window` and `--cache-reuse cacheReuse` (0: off). */
async function compactionSession(engine: RealEngine, window: number, cacheReuse: number): Promise<SessionFigures> {
  const llama = await startLlamaServer(engine, { window, ...(cacheReuse ? { cacheReuse } : {}) });
  const figures: SessionFigures = { window, cacheReuse, requests: 0, refused: [], events: 0, promptTokens: 0, prefilled: 0, reprefilledAtEvents: 0, reprefilledElsewhere: 0, eventDetails: [], problems: [] };
  try {
    const get = async (path: string) => (await fetch(`${llama.origin}${path}`)).json() as Promise<Record<string, unknown>>;
    const [props, models, slots] = await Promise.all([get('/props'), get('/v1/models'), get('/slots')]);
    let previous: { messages: WireJson[]; promptTokens: number } | undefined;
    const server = await startScriptedServer(
      async (request, index) => {
        const json = request.json;
        const n = index + 1;
        figures.requests++;
        const order = orderProblem(json.messages);
        if (order) figures.problems.push(`request ${n}: ${order}`);
        let result: WireJson;
        try {
          result = await post(llama.origin, '/v1/chat/completions', { ...json, stream: false, stream_options: undefined, max_tokens: 1 });
        } catch (error) {
          figures.refused.push(`request ${n}: ${(error as Error).message}`);
          return { fault: { type: 'status', status: (error as { status?: number }).status ?? 500, message: (error as Error).message } };
        }
        const promptTokens = result.usage.prompt_tokens as number;
        const cached = result.timings.cache_n as number;
        const prefilled = result.timings.prompt_n as number;
        const maxTokens = json.max_tokens as number | undefined;
        if (maxTokens === undefined || promptTokens + maxTokens > window) figures.refused.push(`request ${n}: ${promptTokens} prompt tokens + max_tokens ${maxTokens} > ${window}`);
        figures.promptTokens += promptTokens;
        figures.prefilled += prefilled;
        if (previous) {
          const before = JSON.stringify(previous.messages);
          if (JSON.stringify(json.messages).startsWith(before.slice(0, -1))) {
            figures.reprefilledElsewhere += Math.max(0, prefilled - (promptTokens - previous.promptTokens));
          } else {
            figures.events++;
            // The kept history: the messages after the system prompt and task that the previous request had, byte for byte.
            const sent = new Set(previous.messages.map((message) => JSON.stringify(message)));
            let kept = 2;
            while (kept < json.messages.length && sent.has(JSON.stringify(json.messages[kept]))) kept++;
            const rendered = await post(llama.origin, '/apply-template', { messages: json.messages.slice(0, kept), tools: json.tools });
            const held = ((await post(llama.origin, '/tokenize', { content: rendered.prompt, add_special: false })).tokens as unknown[]).length;
            const again = Math.max(0, prefilled - (promptTokens - held));
            figures.reprefilledAtEvents += again;
            figures.eventDetails.push({ request: n, held, prefilled: again, prompt: promptTokens });
          }
        }
        previous = { messages: json.messages, promptTokens };
        const usage = { prompt_tokens: promptTokens, cached_tokens: cached, completion_tokens: 20 };
        if (index >= ROUNDS) return { content: 'Each module parses its input step by step.', usage, usageIn: 'finish' };
        const file = `src/module${index % 30}.ts`;
        return { toolCalls: [{ id: `call_${index}`, name: 'read', arguments: { path: file, offset: 1 + ((index * 37) % 130), limit: 20 + (index % 6) } }], usage, usageIn: 'finish' };
      },
      { props, models: (models['data'] as Array<Record<string, unknown>>) ?? [], serverHeader: 'llama.cpp', routes: { 'GET /slots': slots, 'GET /health': { status: 'ok' } } },
    );
    try {
      const run = await runReika(['-p', TASK, '--json'], {
        cwd: gitRepo(project()),
        env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'tiny-qwen2', REIKA_MAX_TURNS: String(ROUNDS + 10), REIKA_AUTO_APPROVE: 'bypass' },
        limitMs: 900_000,
      });
      if (run.code !== 0) figures.problems.push(`reika exited ${run.code}: ${run.stderr.slice(-1_500)}`);
    } finally {
      await server.close();
    }
  } finally {
    await llama.close();
  }
  return figures;
}

function describe(figures: SessionFigures): string {
  const share = (figures.reprefilledAtEvents / figures.prefilled) * 100;
  return `-c ${figures.window}${figures.cacheReuse ? ` --cache-reuse ${figures.cacheReuse}` : ''}: ${figures.requests} requests, ${figures.refused.length} refused, ${figures.events} events, ${figures.prefilled} prefilled, ${figures.reprefilledAtEvents} re-prefilled at events (${share.toFixed(1)}%), ${figures.reprefilledElsewhere} elsewhere; events ${figures.eventDetails.map((event) => `#${event.request} ${event.prefilled}/${event.held}`).join(', ')}`;
}

const engine = realEngine();
const real = typeof engine === 'string' ? test.skip : test.serial;

for (const window of [16_384, 32_768]) {
  real(`80 rounds of reads through llama-server at -c ${window}: nothing refused, and at most 10% of the prefill spent again at compaction events, with and without --cache-reuse`, async (t) => {
    t.timeout(1_800_000);
    for (const reuse of [0, REUSE]) {
      const figures = await compactionSession(engine as RealEngine, window, reuse);
      t.log(describe(figures));
      t.deepEqual(figures.problems, []);
      t.is(figures.requests, ROUNDS + 1);
      t.deepEqual(figures.refused, []);
      t.true(figures.events >= 1, 'the session needed compaction');
      t.true(figures.reprefilledAtEvents <= 0.1 * figures.prefilled, describe(figures));
      if (reuse) t.true(figures.reprefilledAtEvents <= 0.02 * figures.prefilled, `--cache-reuse finds the kept history: ${describe(figures)}`);
    }
  });
}
