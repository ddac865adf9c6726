import test from 'ava';
import { startScriptedServer, type ScriptedServer, type WireJson } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/** The prefix-cache contract (SPEC §5) seen from the server: what the requests on the wire look like. */

const servers: ScriptedServer[] = [];
test.after.always(() => Promise.all(servers.map((s) => s.close())));

function files(count: number, size: number): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let i = 1; i <= count; i++) {
    const line = `file ${i}: ${'lorem ipsum dolor sit amet '.repeat(3)}\n`;
    tree[`docs/f${i}.txt`] = line.repeat(Math.ceil(size / line.length)).slice(0, size);
  }
  return tree;
}

test('a 15-round session with a 16k window is append-only except at most 3 compaction events, and never over the window', async (t) => {
  const repo = gitRepo(files(15, 3_000));
  const s = await startScriptedServer((_request, index) => (index < 15 ? { toolCalls: [{ name: 'read', arguments: { path: `docs/f${index + 1}.txt` } }] } : { content: 'Read them all.' }));
  servers.push(s);
  const run = await runReika(['-p', 'read every file in docs, one at a time', '--json'], {
    cwd: repo,
    env: { REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '16000' },
  });
  t.is(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  const chats = s.chatRequests();
  t.is(chats.length, 16);
  let breaks = 0;
  for (let n = 1; n < chats.length; n++) {
    const before = JSON.stringify(chats[n - 1]!.json.messages);
    const after = JSON.stringify(chats[n]!.json.messages);
    if (!after.startsWith(before.slice(0, -1))) breaks++;
    t.is(JSON.stringify(chats[n]!.json.tools), JSON.stringify(chats[0]!.json.tools), 'the tools never change');
  }
  t.true(breaks <= 3, `${breaks} prefix breaks`);
  t.true(breaks >= 1, 'the session was long enough to need a compaction');
  t.is(result.compactions, breaks, 'every prefix break is a compaction event');
  for (const chat of chats) {
    const promptTokens = Math.ceil(JSON.stringify({ messages: chat.json.messages, tools: chat.json.tools }).length / 4);
    t.true(promptTokens + (chat.json.max_tokens ?? 0) <= 16_000, `prompt ${promptTokens} + max_tokens ${chat.json.max_tokens}`);
  }
});

test('with the window unknown, older payloads go as summaries while the newest group keeps its payloads', async (t) => {
  const repo = gitRepo({ 'a.txt': 'AAA content\n', 'b.txt': 'BBB content\n', 'c.txt': 'CCC content\n' });
  const s = await startScriptedServer([
    { toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] },
    {
      toolCalls: [
        { name: 'read', arguments: { path: 'b.txt' } },
        { name: 'read', arguments: { path: 'c.txt' } },
      ],
    },
    { content: 'done' },
  ]);
  servers.push(s);
  const run = await runReika(['-p', 'read a, then b and c'], { cwd: repo, env: { REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model' } });
  t.is(run.code, 0, run.stderr);
  const last = s.chatRequests()[2]!.json;
  const tools = last.messages.filter((m: WireJson) => m.role === 'tool').map((m: WireJson) => m.content as string);
  t.is(tools.length, 3);
  t.notRegex(tools[0]!, /AAA content/, 'the older result is only its summary');
  t.regex(tools[0]!, /dropped from the context/);
  t.regex(tools[1]!, /BBB content/);
  t.regex(tools[2]!, /CCC content/);
  t.regex(s.chatRequests()[1]!.json.messages.find((m: WireJson) => m.role === 'tool').content, /AAA content/, 'it had its payload while it was the newest');
});
