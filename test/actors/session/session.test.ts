import test from 'ava';
import { Session } from '../../../actors/session/session.js';
import { loadConfig } from '../../../actors/config/load-config.js';
import { INDEXER, type IndexerProtocol } from '../../../actors/indexer/protocol.js';
import { MODEL_IO, type ChatMessage, type ModelIoProtocol, type ToolSchema } from '../../../actors/model-io/protocol.js';
import { defineActor, Supervisor } from '../../../runtime/index.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo } from '../../helpers/temp.js';

interface Fakes {
  scans: string[];
  chats: { messages: ChatMessage[]; tools: ToolSchema[]; model: string }[];
  models: string[];
}

async function sessionWith(t: { teardown(fn: () => Promise<void>): void }, env: Record<string, string>, models = ['only-model'], prewarm?: () => void, reload = false) {
  const root = gitRepo({ 'package.json': JSON.stringify({ name: 'demo', scripts: { test: 'node --test' } }), 'src/a.ts': 'export const a = 1;\n', 'AGENTS.md': 'Be brief.' });
  const fakes: Fakes = { scans: [], chats: [], models };
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  await supervisor.register(
    INDEXER,
    defineActor<IndexerProtocol>({
      handle(request) {
        if (request.type === 'scan') {
          fakes.scans.push(request.root);
          return { root: request.root, paths: ['package.json', 'src/a.ts'], capped: [], stats: { directories: 2, files: 2, ignored: 0, skipped: 0, ms: 1 } };
        }
        return { text: `src/a.ts: a (budget ${request.budgetTokens})\n`, files: [{ path: 'src/a.ts', score: 1, symbols: ['a'] }], omitted: 0, budgetTokens: request.budgetTokens };
      },
    }),
  );
  await supervisor.register(
    MODEL_IO,
    defineActor<ModelIoProtocol>({
      handle(request) {
        if (request.type === 'discover') return { models: fakes.models, contextWindow: 100_000 };
        if (request.type === 'detect') return { kind: 'server', engine: 'unknown', baseUrl: request.endpoint.baseUrl, answered: [] };
        fakes.chats.push({ messages: request.messages, tools: request.tools, model: request.endpoint.model });
        return { text: `answer ${fakes.chats.length}`, reasoning: '', toolCalls: [], finishReason: 'stop', usage: { promptTokens: 50, completionTokens: 5, cachedTokens: 40 }, notices: [] };
      },
    }),
  );
  const config = loadConfig({ cwd: root, env, home: root });
  const session = new Session({ runtime: { supervisor, indexerReady: Promise.resolve(), ...(prewarm ? { prewarm } : {}) }, config, cwd: root, headless: true, ...(reload ? { configFor: (folder: string) => loadConfig({ cwd: folder, env, home: root, trusted: true }) } : {}) });
  return { session, fakes, root };
}

test('the tool executor is started once the first request has gone, not at the bootstrap (its spawn holds the main thread)', async (t) => {
  const prewarmed: number[] = [];
  let requests = 0;
  const { session } = await sessionWith(t, { REIKA_MODEL: 'm', REIKA_CONTEXT_WINDOW: '32000' }, ['m'], () => prewarmed.push(requests));
  session.subscribe((event) => {
    if (event.type === 'request') requests++;
  });
  await session.ready;
  t.deepEqual(prewarmed, [], 'not started by the bootstrap');
  await session.run('hello');
  t.deepEqual(prewarmed, [1], 'started as the first request went to model-io');
});

test('the bootstrap runs once and every turn sends the same frozen system prompt and tools', async (t) => {
  const { session, fakes, root } = await sessionWith(t, {});
  const first = await session.run('hello');
  t.is(first.status, 'answered');
  t.is(first.answer, 'answer 1');
  await session.run('again');
  t.deepEqual(fakes.scans, [root]);
  const [a, b] = fakes.chats;
  t.is(a!.model, 'only-model', 'REIKA_MODEL unset and one model offered: that one is used');
  const system = a!.messages[0]!.content as string;
  t.regex(system, /Working directory: /);
  t.regex(system, /Project: demo/);
  t.regex(system, /Test command: npm test/);
  t.regex(system, /Be brief\./);
  t.regex(system, /src\/a\.ts: a \(budget 5000\)/, 'the repo-map budget follows the discovered window');
  t.deepEqual(b!.messages[0], a!.messages[0]);
  t.deepEqual(b!.tools, a!.tools);
  t.true(JSON.stringify(b!.messages).startsWith(JSON.stringify(a!.messages).slice(0, -1)), 'the second turn extends the first');
  t.like(session.info(), { usage: { promptTokens: 100, cachedTokens: 80 }, cacheHitRate: 0.8, model: 'only-model' });
});

test('/cd . rebuilds the bootstrap and /new starts a fresh conversation', async (t) => {
  const { session, fakes } = await sessionWith(t, { REIKA_MODEL: 'm', REIKA_CONTEXT_WINDOW: '32000' });
  await session.run('one');
  await session.cd('.');
  t.is(fakes.scans.length, 2);
  await session.run('two');
  t.deepEqual(fakes.chats[1]!.messages.map((m) => m.role), ['system', 'user']);
  session.newConversation();
  await session.run('three');
  t.deepEqual(fakes.chats[2]!.messages.map((m) => m.role), ['system', 'user']);
  t.is(fakes.chats[2]!.model, 'm');
  await t.throwsAsync(session.cd('no/such/folder'), { message: /is not a folder/ });
});

test('with REIKA_MODEL unset and several models offered, the turn fails naming the setting', async (t) => {
  const { session } = await sessionWith(t, {}, ['a', 'b']);
  const result = await session.run('hi');
  t.is(result.status, 'error');
  t.is(result.error!.code, 'REIKA_ERR_MODEL_UNSET');
  t.regex(result.error!.message, /REIKA_MODEL is not set .* offers 2 models \(a, b\) — set REIKA_MODEL\./);
  await t.throwsAsync(session.ready);
});

test('after /cd the tools run under the settings of the new folder, read once there; a bad one stops the move', async (t) => {
  const { session, root } = await sessionWith(t, { REIKA_BASH_IDLE_MS: '5s' }, undefined, undefined, true);
  await session.ready;
  t.like(session.tools, { sandbox: 'auto', checkpoints: true, bashIdleMs: 5_000 });
  mkdirSync(join(root, 'other'));
  writeFileSync(join(root, 'other', '.env'), 'REIKA_SANDBOX=off\nREIKA_CHECKPOINTS=off\nREIKA_BASH_IDLE_MS=1m\n');
  await session.cd('other');
  t.like(session.tools, { sandbox: 'off', checkpoints: false, bashIdleMs: 5_000 }, 'the environment still wins over the folder’s .env');
  mkdirSync(join(root, 'broken'));
  writeFileSync(join(root, 'broken', '.env'), 'REIKA_SANDBOX=firejail\n');
  await t.throwsAsync(session.cd('../broken'), { message: 'REIKA_SANDBOX must be auto, bwrap or off, not "firejail"' });
  t.is(session.info().root, join(root, 'other'));
  t.like(session.tools, { sandbox: 'off' });
});
