import { TEMPLATE_DIR, templateFixtures, type TemplateFixture as Fixture } from '../../helpers/chat-templates.js';
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ContextManager } from '../../../actors/context/context-manager.js';
import { placeSystem } from '../../../actors/model-io/system-placement.js';
import { renderChatTemplate } from '../../../actors/model-io/engine/chat-template.js';
import type { ChatMessage, ToolSchema } from '../../../actors/model-io/protocol.js';
import { compareRenderings } from '../../../actors/model-io/template-check/compare.js';
import { probeRequests, probeTemplate, rewriteFor } from '../../../actors/model-io/template-check/probe.js';
import { TemplateChecker } from '../../../actors/model-io/template-check/template-checker.js';
import { keepReasoning } from '../../../actors/model-io/http/reasoning-history.js';

/**
 * The template check against the 27 real chat templates of test/fixtures/chat-templates
 * (SOURCES.md). Rendering a recorded reika session request after request, it must find exactly
 * the breaks issue 22 measured: Qwen3.5 re-renders the previous assistant turn at a new user
 * message, Hermes 3 the last tool result, the two Mistral templates move the tools block before
 * the newest user message; Mistral-Nemo also loses the system prompt, which the first-user
 * placement fixes. The other 23 stay append-only.
 */

const dir = TEMPLATE_DIR;
const fixtures = templateFixtures;

const source = (fixture: Fixture) => readFileSync(new URL(fixture.file, dir), 'utf8');

/** What the check must find per template; every other template stays append-only. */
const EXPECTED: Record<string, string[]> = {
  'qwen3.5': ['assistant-rerendered'],
  hermes3: ['tool-rerendered'],
  'mistral-nemo': ['system-placement', 'tools-moved'],
  'mistral-small-3.2': ['tools-moved'],
};

test('the probe finds exactly the breaks of the real templates, and Mistral-Nemo alone needs the first-user placement', async (t) => {
  const all = fixtures();
  t.is(all.length, 27);
  for (const fixture of all) {
    const probe = await probeTemplate({ template: source(fixture), bosToken: fixture.bos, eosToken: fixture.eos });
    t.deepEqual(probe.findings.map((finding) => finding.kind), EXPECTED[fixture.id] ?? [], fixture.id);
    t.is(probe.placement, fixture.id === 'mistral-nemo' ? 'first-user' : 'system', fixture.id);
  }
});

test('Mistral-Nemo drops the system prompt from the second request on; in the first user message it is in every request', async (t) => {
  const nemo = fixtures().find((f) => f.id === 'mistral-nemo')!;
  const system = probeRequests()[0]![0]!.content as string;
  const render = (messages: ChatMessage[]) => renderChatTemplate(source(nemo), { messages, tools: [], bosToken: nemo.bos, eosToken: nemo.eos, generationPrompt: false });
  const plain = await Promise.all(probeRequests().map(render));
  t.true(plain[0]!.includes(system));
  t.false(plain[1]!.includes(system), 'after a tool round the template renders no system prompt at all');
  const placed = await Promise.all(probeRequests().map((messages) => render(placeSystem(messages, 'first-user'))));
  for (const text of placed) t.true(text.includes(system));
  // Within a turn every request extends the previous one; the new question (request 4) still
  // moves the tools block, the break the probe reports for both Mistral templates.
  for (let i = 1; i < placed.length; i++) t.is(placed[i]!.startsWith(placed[i - 1]!), i !== 3, `request ${i + 1}`);
});

test('the checker worker renders a context manager’s requests and names the cause and the tokens of each break', async (t) => {
  const tools: ToolSchema[] = [{ type: 'function', function: { name: 'read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string', description: 'file path' } }, required: ['path'] } } }];
  const byId = new Map(fixtures().map((f) => [f.id, f]));
  const results: Record<string, string[]> = {};
  for (const id of ['qwen2.5', 'qwen3.5', 'hermes3', 'mistral-small-3.2']) {
    const fixture = byId.get(id)!;
    const checker = new TemplateChecker({ template: source(fixture), bosToken: fixture.bos, eosToken: fixture.eos });
    t.teardown(() => checker.close());
    const context = new ContextManager({ system: 'You are reika.', tools, window: 65_536 });
    const found: string[] = [];
    const send = async () => {
      const result = await checker.render('main', context.prepare().messages, tools);
      t.true(result.chars > 0);
      if (result.break) {
        t.true(result.break.lostTokens > 0);
        found.push(result.break.cause);
      }
    };
    for (let turn = 1; turn <= 2; turn++) {
      context.addUser(`Question ${turn}: what is in a${turn}.txt?`);
      await send();
      context.addAssistant('Reading it.', [{ id: `aB3dE6gH${turn}`, name: 'read', arguments: { path: `a${turn}.txt` }, source: 'native' }]);
      context.addToolResult({ callId: `aB3dE6gH${turn}`, name: 'read', summary: 'read (1 line)', payload: `line ${turn}` });
      await send();
      context.addAssistant(`It says line ${turn}.`, []);
      context.endTurn('answered');
    }
    results[id] = found;
  }
  t.deepEqual(results, { 'qwen2.5': [], 'qwen3.5': ['assistant-rerendered'], hermes3: ['tool-rerendered'], 'mistral-small-3.2': ['tools-moved'] });
});

test('a prompt that extends the previous one is no break; one that departs inside it costs what follows', (t) => {
  const messages: ChatMessage[] = [{ role: 'user', content: 'hi' }];
  t.is(compareRenderings({ text: 'abc', messages, tools: [] }, { text: 'abcdef', messages, tools: [] }), undefined);
  const found = compareRenderings({ text: 'xx hi yy', messages, tools: [] }, { text: 'xx hi zz and more', messages, tools: [] });
  t.like(found, { at: 6, lostChars: 2, lostTokens: 1, cause: 'user-rerendered' });
});

test('llama.cpp’s per-model rewrite is recognised from the template text', (t) => {
  const byId = new Map(fixtures().map((f) => [f.id, f]));
  t.is(rewriteFor(source(byId.get('gpt-oss')!)), 'gpt-oss');
  t.is(rewriteFor(source(byId.get('ministral-3')!)), 'ministral-3');
  t.is(rewriteFor(source(byId.get('qwen3')!)), undefined);
});

test('REIKA_REASONING_HISTORY=auto keeps reasoning only where the real template renders it in history and stays append-only', async (t) => {
  const keeps: string[] = [];
  for (const fixture of fixtures()) {
    if ((await probeTemplate({ template: source(fixture), bosToken: fixture.bos, eosToken: fixture.eos })).keepsReasoning) keeps.push(fixture.id);
  }
  // With llama-server's default preserve-reasoning flags (GLM-4.7 and Nemotron 3 read them).
  t.deepEqual(keeps.sort(), ['glm-4.7-flash', 'ministral-3', 'nemotron3-nano', 'seed-oss']);
  t.true(keepReasoning('auto', 'whatever', true));
  t.false(keepReasoning('auto', 'gpt-oss-120b', false), 'the template’s say wins over the name');
  t.true(keepReasoning('auto', 'openai/gpt-oss-20b'), 'no template: by the model’s name');
  t.true(keepReasoning('auto', 'GLM-4.6'));
  t.false(keepReasoning('auto', 'Qwen3-8B'));
  t.true(keepReasoning('keep', 'Qwen3-8B', false));
  t.false(keepReasoning('drop', 'seed-oss', true));
});

test('with reasoning kept, the context manager sends it on the assistant message, and keeps it there afterwards', (t) => {
  const context = new ContextManager({ system: 'You are reika.', tools: [], window: 32_768, reasoningHistory: true });
  context.addUser('hi');
  context.prepare();
  context.addAssistant('Hello.', [], undefined, 'The user greets me.');
  context.endTurn('answered');
  context.addUser('again');
  const first = context.prepare().messages;
  t.deepEqual(first[2], { role: 'assistant', content: 'Hello.', reasoning_content: 'The user greets me.' });
  context.addAssistant('Hi again.', [], undefined, 'Once more.');
  context.endTurn('answered');
  context.addUser('bye');
  t.deepEqual(context.prepare().messages.slice(0, first.length), first, 'what was sent stays byte for byte');
  const plain = new ContextManager({ system: 'You are reika.', tools: [], window: 32_768 });
  plain.addUser('hi');
  plain.prepare();
  plain.addAssistant('Hello.', [], undefined, 'The user greets me.');
  plain.addUser('again');
  t.deepEqual(plain.prepare().messages[2], { role: 'assistant', content: 'Hello.' });
});
