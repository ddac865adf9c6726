import { TEMPLATE_DIR, templateFixtures, type TemplateFixture as Fixture } from '../../helpers/chat-templates.js';
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ContextManager } from '../../../actors/context/context-manager.js';
import { renderChatTemplate, type TemplateRequest } from '../../../actors/model-io/engine/chat-template.js';
import type { ChatMessage, ToolCall, ToolSchema } from '../../../actors/model-io/protocol.js';
import { LLAMA_CPP_VARIABLES, probeTemplate, rewriteFor } from '../../../actors/model-io/template-check/probe.js';

/**
 * Append-only in what the engine sees, not only in JSON: issue 21's held-out session shape (80
 * rounds at 16k of 20-line reads, greps, edits, commands and now and then a large output; the
 * model's reasoning and a few words beside its calls; a repeated call, two calls in one reply, an
 * empty reply) driven through the context manager and rendered, request after request, through
 * each of the 27 real chat templates of test/fixtures/chat-templates (SOURCES.md) with
 * llama-server's variables. Between compaction events every rendered prompt must start with the
 * previous one, generation prompt included (what the engine has cached), except where a template
 * itself re-renders history (the four that the template check reports, SPEC §11).
 */

const dir = TEMPLATE_DIR;
const fixtures = templateFixtures;

/** The templates that re-render history themselves (template-check.test.ts): reported, not fixable by reika. */
const RE_RENDERING = new Set(['qwen3.5', 'hermes3', 'mistral-nemo', 'mistral-small-3.2']);

const tools: ToolSchema[] = [
  { type: 'function', function: { name: 'read', description: 'Read a file with line numbers.', parameters: { type: 'object', properties: { path: { type: 'string', description: 'The path.' }, offset: { type: 'integer', description: 'The offset.' }, limit: { type: 'integer', description: 'The limit.' } }, required: ['path'] } } },
  { type: 'function', function: { name: 'grep', description: 'Search files.', parameters: { type: 'object', properties: { pattern: { type: 'string', description: 'The pattern.' }, path: { type: 'string', description: 'The path.' } }, required: ['pattern'] } } },
  { type: 'function', function: { name: 'edit', description: 'Replace one occurrence.', parameters: { type: 'object', properties: { path: { type: 'string', description: 'The path.' }, old_string: { type: 'string', description: 'The old string.' }, new_string: { type: 'string', description: 'The new string.' } }, required: ['path', 'old_string', 'new_string'] } } },
  { type: 'function', function: { name: 'bash', description: 'Run a command.', parameters: { type: 'object', properties: { command: { type: 'string', description: 'The command.' } }, required: ['command'] } } },
];
const SYSTEM = `You are reika, a coding agent.\n# Repo map\n${Array.from({ length: 120 }, (_, i) => `src/m${i}.ts: load${i}, parse${i}, Format${i}`).join('\n')}`;
const TASK = 'Go through src/ file by file, read each part, fix the slots in src/changes.ts and check with grep as you go.';

function codeLines(n: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `${n + i}\t  const value${i} = parse${n % 24}(input[${i}]) ?? defaults.value${i}; // step ${n}`).join('\n');
}

/** Round n's call and its result, as in the held-out harness. */
function round(n: number): { call: Omit<ToolCall, 'id' | 'source'>; summary: string; payload: string } {
  const file = `src/m${n % 24}.ts`;
  if (n % 20 === 13) return { call: { name: 'bash', arguments: { command: `sed -n ${n},${n + 400}p build.log` } }, summary: 'exit 0, 401 lines', payload: Array.from({ length: 401 }, (_, i) => `log line ${n + i}`).join('\n') };
  if (n % 20 === 17) return { call: { name: 'read', arguments: { path: file, offset: 1, limit: 200 } }, summary: `${file}: lines 1-200`, payload: codeLines(1, 200) };
  if (n % 10 === 3) return { call: { name: 'grep', arguments: { pattern: `export function \\w*${n}`, path: 'src' } }, summary: '6 matches in 6 files', payload: Array.from({ length: 6 }, (_, i) => `src/m${i}.ts:${n}: export function load${n}(input: string): Result {`).join('\n') };
  if (n % 10 === 6) return { call: { name: 'edit', arguments: { path: 'src/changes.ts', old_string: `// slot ${n}: todo`, new_string: `// slot ${n}: done` } }, summary: 'src/changes.ts: replaced 1 occurrence', payload: `@@ -${n},1 +${n},1 @@\n-// slot ${n}: todo\n+// slot ${n}: done` };
  if (n % 10 === 9) return { call: { name: 'bash', arguments: { command: `wc -l ${file} && echo round ${n}` } }, summary: 'exit 0', payload: `212 ${file}\nround ${n}` };
  return { call: { name: 'read', arguments: { path: file, offset: 1 + ((n * 37) % 190), limit: 20 } }, summary: `${file}: 20 lines`, payload: codeLines(1 + ((n * 37) % 190), 20) };
}

interface Outcome {
  requests: number;
  events: number;
  /** Requests (no event) whose rendered prompt does not start with the previous one. */
  breaks: string[];
  /**
   * Requests that start with the previous prompt but not with its generation prompt: templates
   * that open the reasoning there (`<think>\n`) and render none in history. A few tokens each,
   * the template's own doing.
   */
  generationPrompts: number;
}

async function session(fixture: Fixture): Promise<Outcome> {
  const source = readFileSync(new URL(fixture.file, dir), 'utf8');
  const probe = await probeTemplate({ template: source, bosToken: fixture.bos, eosToken: fixture.eos });
  const context = new ContextManager({ system: SYSTEM, tools, window: 16_384, systemPlacement: probe.placement, reasoningHistory: probe.keepsReasoning });
  const rewrite = rewriteFor(source);
  const render = (messages: ChatMessage[], generationPrompt = true) =>
    renderChatTemplate(source, { messages, tools, bosToken: fixture.bos, eosToken: fixture.eos, variables: LLAMA_CPP_VARIABLES, generationPrompt, ...(rewrite ? { rewrite } : {}) } satisfies TemplateRequest);
  const outcome: Outcome = { requests: 0, events: 0, breaks: [], generationPrompts: 0 };
  let previousBody: string | undefined;
  context.addUser(TASK);
  let previous: string | undefined;
  let id = 0;
  const nextId = () => `call_${++id}`;
  for (let n = 0; n <= 80; n++) {
    const prepared = context.prepare();
    const prompt = await render(prepared.messages);
    outcome.requests++;
    if (prepared.compaction) outcome.events++;
    else if (previous !== undefined && !prompt.startsWith(previous) && prompt.startsWith(previousBody!)) outcome.generationPrompts++;
    else if (previous !== undefined && !prompt.startsWith(previous)) {
      let at = 0;
      while (prompt[at] === previous[at]) at++;
      outcome.breaks.push(`request ${n}: at ${at} of ${previous.length}, was ${JSON.stringify(previous.slice(at, at + 60))}, now ${JSON.stringify(prompt.slice(at, at + 60))}`);
    }
    previous = prompt;
    previousBody = await render(prepared.messages, false);
    // The engine's count: ~3.3 characters a token.
    context.recordUsage({ promptTokens: Math.ceil(prompt.length / 3.3), completionTokens: 40, cachedTokens: 0 }, 'tool_calls');
    if (n === 80) {
      context.addAssistant('All slots are handled.', [], undefined, 'Everything is done.');
      break;
    }
    // An empty reply: asked again as it was (runTurn), so nothing is added before the next request.
    if (n === 11) continue;
    const reasoning = `Round ${n}: the next part of the file comes next.`;
    const text = n % 3 === 0 ? `Now round ${n}.` : '';
    const main = round(n % 25 === 5 ? n - 1 : n);
    const calls: ToolCall[] = [{ ...main.call, id: nextId(), source: 'native' }];
    const extra = n % 25 === 18 ? { call: { name: 'read', arguments: { path: 'src/changes.ts', offset: n, limit: 5 } }, summary: 'src/changes.ts: 5 lines', payload: `${n}\t// slot ${n}: todo` } : undefined;
    if (extra) calls.push({ ...extra.call, id: nextId(), source: 'native' });
    context.addAssistant(text, calls, undefined, reasoning);
    context.addToolResult({ callId: calls[0]!.id, name: main.call.name, summary: main.summary, payload: main.payload, status: 'done' });
    if (extra) context.addToolResult({ callId: calls[1]!.id, name: extra.call.name, summary: extra.summary, payload: extra.payload, status: 'done' });
    if (n % 25 === 5) context.addNudge('You already made this exact read call; its result is above.');
  }
  return outcome;
}

test('80 rounds at 16k render append-only through every real chat template between compaction events, generation prompt included (an empty reply asked again as it was)', async (t) => {
  t.timeout(120_000);
  const all = fixtures();
  t.is(all.length, 27);
  const lines: string[] = [];
  const broken: string[] = [];
  const oddCounts: string[] = [];
  const generationPrompts: string[] = [];
  for (const fixture of all) {
    let outcome: Outcome;
    try {
      outcome = await session(fixture);
    } catch (error) {
      broken.push(`${fixture.id} rejected the session: ${(error as Error).message}`);
      continue;
    }
    lines.push(`${fixture.id}: ${outcome.requests} requests, ${outcome.events} events, ${outcome.breaks.length} breaks, ${outcome.generationPrompts} generation prompts re-rendered${outcome.breaks[0] ? ` (first: ${outcome.breaks[0]})` : ''}`);
    // Command R7B's verbose template makes each round cost more tokens: 6 events (5 while an event
    // kept only ~10% of the history verbatim, before it kept ~30%). Every other template: 4.
    const most = fixture.id === 'command-r7b' ? 6 : 4;
    if (outcome.requests !== 81 || outcome.events < 1 || outcome.events > most) oddCounts.push(`${fixture.id}: ${outcome.requests} requests, ${outcome.events} events`);
    if (!RE_RENDERING.has(fixture.id) && outcome.breaks.length > 0) broken.push(fixture.id);
    if (outcome.generationPrompts > 0) generationPrompts.push(fixture.id);
  }
  t.log(lines.join('\n'));
  t.deepEqual(broken, []);
  t.deepEqual(oddCounts, []);
  // QwQ and MiniMax-M2 open `<think>` in every generation prompt and render no reasoning in history
  // (kept, MiniMax-M2 would drop it at the next user message: a whole turn re-prefilled instead of
  // two tokens a request); R1-Distill and Gemma 4 once, at the first call.
  t.deepEqual(generationPrompts, ['qwq', 'r1-distill', 'gemma4', 'minimax-m2']);
});
