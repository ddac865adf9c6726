import test, { type ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import { ContextManager } from '../../../../actors/context/context-manager.js';
import { renderChatTemplate, type TemplateRequest } from '../../../../actors/model-io/engine/chat-template.js';
import type { ChatMessage, ToolSchema } from '../../../../actors/model-io/protocol.js';
import { runReika } from '../../../cli/headless-helpers.js';
import { startScriptedServer } from '../../../helpers/scripted-server.js';
import { gitRepo } from '../../../helpers/temp.js';

/**
 * What reika sends must render through every real chat template in test/fixtures/chat-templates
 * (27 models' own templates as llama.cpp ships them; SOURCES.md): no null content, only 9-letter
 * ids where reika mints them, no user message right after tool results.
 */

const dir = new URL('../../../../../test/fixtures/chat-templates/', import.meta.url);

interface Fixture {
  id: string;
  file: string;
  bos: string;
  eos: string;
  rewrite?: TemplateRequest['rewrite'];
}

/** The table in SOURCES.md: id, path, commit, `bos / eos`, llama.cpp rewrite. */
function fixtures(): Fixture[] {
  const rows: Fixture[] = [];
  for (const line of readFileSync(new URL('SOURCES.md', dir), 'utf8').split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 7 || !cells[2]!.startsWith('models/templates/')) continue;
    const [bos, eos] = cells[4]!.split(' / ').map((token) => (token === '(none)' ? '' : token.replace(/^`|`$/g, '')));
    const rewrite = cells[5] === 'gpt-oss' || cells[5] === 'ministral-3' ? cells[5] : undefined;
    rows.push({ id: cells[1]!, file: cells[2]!.slice('models/templates/'.length), bos: bos!, eos: eos!, ...(rewrite ? { rewrite } : {}) });
  }
  return rows;
}

async function renderAll(t: ExecutionContext, messages: ChatMessage[], tools: ToolSchema[]): Promise<void> {
  const all = fixtures();
  t.is(all.length, 27, 'every template in SOURCES.md');
  for (const fixture of all) {
    const source = readFileSync(new URL(fixture.file, dir), 'utf8');
    const request = { messages, tools, bosToken: fixture.bos, eosToken: fixture.eos, ...(fixture.rewrite ? { rewrite: fixture.rewrite } : {}) };
    let prompt = '';
    try {
      prompt = await renderChatTemplate(source, request);
    } catch (error) {
      t.fail(`${fixture.id} (${fixture.file}) rejected the conversation: ${(error as Error).message}`);
      continue;
    }
    // Every message's words reached the prompt (nothing silently dropped by a wrong shape).
    const last = messages.at(-1)!;
    t.true(prompt.includes(String(last.content).slice(0, 40)), `${fixture.id}: the newest message is in the prompt`);
  }
}

test('a recorded multi-round reika session renders through every real chat template', async (t) => {
  const repo = gitRepo({ 'notes.txt': 'alpha\nbeta\n', 'src/a.ts': 'export const a = 1;\n' });
  const server = await startScriptedServer([
    // Prose and a native call the server sent without an id (reika mints one).
    { content: 'Let me look at the notes.', toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' }, id: null }] },
    // A native call with no text at all: content must be "", not null.
    { toolCalls: [{ name: 'grep', arguments: { pattern: 'export' }, id: null }] },
    // A call printed as text (Hermes style).
    { content: '<tool_call>\n{"name": "read", "arguments": {"path": "src/a.ts"}}\n</tool_call>', finishReason: 'stop' },
    // Two calls in one message.
    { toolCalls: [{ name: 'read', arguments: { path: 'src/a.ts' }, id: null }, { name: 'list', arguments: {}, id: null }] },
    // An empty reply: the nudge must not follow the tool results as a user message.
    { content: '' },
    // The same call and result again: the loop guard's note rides in the tool result.
    { toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' }, id: null }] },
    { content: 'The notes hold two lines: alpha and beta.' },
  ]);
  try {
    const run = await runReika(['-p', 'what is in notes.txt?', '--json'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '65536' } });
    t.is(run.code, 0, run.stderr);
    t.is(JSON.parse(run.stdout).answer, 'The notes hold two lines: alpha and beta.');
    const chats = server.chatRequests();
    t.is(chats.length, 7);
    const { messages, tools } = chats.at(-1)!.json as { messages: ChatMessage[]; tools: ToolSchema[] };
    // The shapes the templates check, as sent.
    for (const message of messages) {
      t.not(message.content, null);
      if (message.role === 'assistant') for (const call of message.tool_calls ?? []) t.regex(call.id, /^[A-Za-z0-9]{9}$/);
      if (message.role === 'tool') t.regex(message.tool_call_id, /^[A-Za-z0-9]{9}$/);
    }
    messages.forEach((message, i) => {
      if (message.role === 'user' && i > 0) t.not(messages[i - 1]!.role, 'tool', `message ${i} is a user message right after a tool result`);
    });
    t.true(messages.some((m) => m.role === 'tool' && /already made this exact read call/.test(m.content)), 'the loop note rode in a tool result');
    await renderAll(t, [...messages, { role: 'assistant', content: 'The notes hold two lines: alpha and beta.' }, { role: 'user', content: 'and src/a.ts?' }], tools);
  } finally {
    await server.close();
  }
});

test('turns cut short after tool results (aborted, out of requests) still render in every template on the next turn', async (t) => {
  const tools: ToolSchema[] = [{ type: 'function', function: { name: 'read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string', description: 'file path' } }, required: ['path'] } } }];
  const context = new ContextManager({ system: 'You are reika.', tools, window: 32_768 });
  context.addUser('read a');
  context.prepare();
  context.addAssistant('', [{ id: 'aB3dE6gH9', name: 'read', arguments: { path: 'a' }, source: 'text' }]);
  context.addToolResult({ callId: 'aB3dE6gH9', name: 'read', summary: 'read a (1 line)', payload: 'alpha' });
  context.endTurn('unanswered');
  context.addUser('and b?');
  context.prepare();
  context.addAssistant('Reading b.', [{ id: 'Zy8xW7vU6', name: 'read', arguments: { path: 'b' }, source: 'native' }]);
  context.addToolResult({ callId: 'Zy8xW7vU6', name: 'read', summary: 'read b (1 line)', payload: 'beta' });
  context.addNudge('Stopped: the model repeated the same read call 4 times with the same result.');
  context.endTurn('unanswered');
  context.addUser('summarise');
  const { messages } = context.prepare();
  t.deepEqual(
    messages.map((m) => m.role),
    ['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'user'],
  );
  await renderAll(t, messages, tools);
});

test('dict literals with integer keys work as in Python (Seed-OSS thinking-budget table): dictsort by number, d[512]', async (t) => {
  const source = "{%- set d = {0: 'zero', 512: 'half', 16384: 'big', 2048: 'mid'} -%}{% for k, v in d | dictsort %}{{ k + 1 }}={{ v }};{% endfor %}|{{ d[512] }}|{% for k, v in d | dictsort(reverse=true) %}{{ k }},{% endfor %}|{{ d.keys() | list | length }}";
  t.is(await renderChatTemplate(source, { messages: [], tools: [] }), '1=zero;513=half;2049=mid;16385=big;|half|16384,2048,512,0,|4');
  // Seed-OSS picks the first gear at or above the budget: 3000 → 4096 → a reflection every 512 tokens.
  const seed = readFileSync(new URL('ByteDance-Seed-OSS.jinja', dir), 'utf8').replace("{%- set thinking_budget = -1 -%}", "{%- set thinking_budget = 3000 -%}");
  t.regex(await renderChatTemplate(seed, { messages: [{ role: 'user', content: 'hi' }], tools: [] }), /every 512 tokens/);
});

test('a compacted conversation (old rounds and turns folded into the recap, which rides in a tool result) renders in every template', async (t) => {
  const tools: ToolSchema[] = [{ type: 'function', function: { name: 'read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string', description: 'file path' } }, required: ['path'] } } }];
  const context = new ContextManager({ system: 'You are reika.', tools, window: 4_096 });
  let folded = 0;
  let messages: ChatMessage[] = [];
  for (let turn = 1; turn <= 4; turn++) {
    context.addUser(`Question ${turn}: what do the files say?`);
    for (let n = 0; n < 6; n++) {
      const prepared = context.prepare();
      folded += prepared.compaction?.folded ?? 0;
      const id = `c${turn}x${n}abcdef`.slice(0, 9);
      context.addAssistant(n === 0 ? 'Reading.' : '', [{ id, name: 'read', arguments: { path: `f${turn}${n}.txt` }, source: 'native' }]);
      context.addToolResult({ callId: id, name: 'read', summary: `read f${turn}${n}.txt (12 lines)`, payload: `line of file ${turn}${n}\n`.repeat(40) });
    }
    messages = context.prepare().messages;
    context.addAssistant(`Answer ${turn}.`, []);
    context.endTurn('answered');
  }
  t.true(folded > 0, 'rounds were folded');
  // The task opens the conversation as it was sent; the recap rides in the newest message of the
  // event's request (a tool result), after the rounds kept verbatim, and stays there as sent.
  t.is(messages[1]!.content, 'Question 4: what do the files say?', 'the task is intact, right after the system prompt');
  t.true(messages.some((message) => message.role === 'tool' && /\n\n\[Recap by reika: [\s\S]*\]$/.test(String(message.content))), 'a tool result carries the recap');
  await renderAll(t, [...messages, { role: 'assistant', content: 'Answer 4.' }, { role: 'user', content: 'and the next one?' }], tools);
});
