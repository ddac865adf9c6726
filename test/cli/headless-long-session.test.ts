import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { orderProblem } from '../actors/context/message-order.js';
import { promptText, seededRandom, startScriptedServer, type ScriptedReply, type ScriptedRequest, type WireJson } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/**
 * Issue 21's acceptance, end to end: `reika -p` runs 300 tool rounds (reads, greps, edits, commands
 * with now and then a 200 KB output) against the scripted server with a 16k window, through the
 * real agent loop, tool executor and model-io. The server counts tokens like a real engine whose
 * tokenizer is denser than characters / 4 and whose template adds tokens per message, and reports
 * that count, as llama.cpp and vLLM do.
 */

const WINDOW = 16_384;
const ROUNDS = 300;
const TASK = 'Go through the project file by file and fix every TODO; check with grep and the test command as you go.';

/** The engine's count: 3.3 characters a token, 6 tokens of template per message. */
function engineTokens(json: WireJson): number {
  return Math.ceil(promptText(json).length / 3.3) + 6 * (json.messages?.length ?? 0);
}

/** 40 modules of 120 TODO lines inside one function each (a small repo map, as in a young project). */
function project(): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 40; i++) {
    const lines = Array.from({ length: 120 }, (_, n) => `  const value${i}_${n} = ${n}; // TODO check module ${i} line ${n}\n  total += value${i}_${n};`);
    tree[`src/module${i}.ts`] = `export function run${i}(): number {\n  let total = 0;\n${lines.join('\n')}\n  return total;\n}\n`;
  }
  return tree;
}

/**
 * Round n's call: mostly 20–25-line reads, then greps, edits and commands; every 23rd prints
 * ~200 KB. No two calls are the same (the loop guard would step in).
 */
function call(n: number, random: () => number): NonNullable<ScriptedReply['toolCalls']>[number] {
  const module = `src/module${n % 40}.ts`;
  if (n % 23 === 0) return { name: 'bash', arguments: { command: `seq ${n} ${n + 36_000}` } };
  const pick = random();
  if (pick < 0.45) return { name: 'read', arguments: { path: module, offset: 1 + (n % 97), limit: 20 + (n % 6) } };
  if (pick < 0.65) return { name: 'grep', arguments: { pattern: `value${n % 40}_${n % 117} `, path: 'src' } };
  if (pick < 0.85) return { name: 'edit', arguments: { path: module, old_string: `value${n % 40}_${n % 119} = ${n % 119}; // TODO`, new_string: `value${n % 40}_${n % 119} = ${n % 119}; // done` } };
  return { name: 'bash', arguments: { command: `wc -l ${module} && echo round ${n}` } };
}

test('300 rounds in a 16k window with large outputs: every request fits, max_tokens keeps its floor, events stay rare, the task and the last round are intact', async (t) => {
  t.timeout(600_000);
  const repo = gitRepo(project());
  const random = seededRandom(21);
  const problems: string[] = [];
  const seen: ScriptedRequest[] = [];
  const calls: Array<ReturnType<typeof call>> = [];
  const server = await startScriptedServer((request, index) => {
    seen.push(request);
    const json = request.json;
    const tokens = engineTokens(json);
    const max = json.max_tokens as number | undefined;
    if (max === undefined || max < 1_024) problems.push(`request ${index}: max_tokens ${max}`);
    if (tokens + (max ?? 0) > WINDOW) problems.push(`request ${index}: ${tokens} prompt tokens + max_tokens ${max} > ${WINDOW}`);
    const order = orderProblem(json.messages);
    if (order) problems.push(`request ${index}: ${order}`);
    const first = json.messages[1];
    if (typeof first?.content !== 'string' || !first.content.startsWith(TASK)) problems.push(`request ${index}: the task is not intact`);
    if (index > 0) {
      const last = json.messages.at(-1);
      const lastCall = json.messages.at(-2)?.tool_calls?.[0];
      const sent = calls[index - 1]!;
      const same = lastCall?.function.name === sent.name && lastCall.function.arguments === JSON.stringify(sent.arguments);
      if (last?.role !== 'tool' || !same || last.tool_call_id !== lastCall.id) problems.push(`request ${index}: the last round is not the newest call and its result`);
      else if (/dropped from the context/.test(last.content)) problems.push(`request ${index}: the last round lost its output`);
    }
    const usage = { prompt_tokens: tokens, completion_tokens: 24 };
    if (index >= ROUNDS) return { content: 'All TODOs are handled.', usage };
    calls[index] = call(index, random);
    return { toolCalls: [{ ...calls[index]!, id: `call_${index}` }], usage };
  });
  t.teardown(() => server.close());
  const run = await runReika(['-p', TASK, '--json'], {
    cwd: repo,
    env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: String(WINDOW), REIKA_MAX_TURNS: String(ROUNDS + 10), REIKA_AUTO_APPROVE: 'bypass' },
    // 300 rounds: the watchdog's limit is this test's own timeout.
    limitMs: 600_000,
  });
  t.is(run.code, 0, run.stderr.slice(-2_000));
  const result = JSON.parse(run.stdout);
  t.is(result.status, 'answered');
  t.is(seen.length, ROUNDS + 1);
  t.deepEqual(problems, []);
  let breaks = 0;
  for (let n = 1; n < seen.length; n++) {
    const before = JSON.stringify(seen[n - 1]!.json.messages);
    if (!JSON.stringify(seen[n]!.json.messages).startsWith(before.slice(0, -1))) breaks++;
  }
  t.is(result.compactions, breaks, 'every prefix break is a compaction event');
  t.true(breaks >= 5, `the session needed compactions (${breaks})`);
  t.true(breaks <= ROUNDS / 20, `${breaks} compaction events in ${ROUNDS} rounds`);
  t.true(result.toolCalls.filter((c: { status: string }) => c.status === 'done').length >= ROUNDS - 5, 'the tools really ran');
  t.regex(readFileSync(join(repo, 'src/module1.ts'), 'utf8'), /\/\/ done/, 'edits landed');
  const sizes = seen.map((r) => engineTokens(r.json));
  t.log(`${breaks} events; largest request ${Math.max(...sizes)} engine tokens; last ${sizes.at(-1)}; smallest max_tokens ${Math.min(...seen.map((r) => r.json.max_tokens))}`);
});
