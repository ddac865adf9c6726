import test from 'ava';
import { Session } from '../../../actors/session/session.js';
import { loadConfig } from '../../../actors/config/load-config.js';
import { INDEXER } from '../../../actors/indexer/protocol.js';
import { MODEL_IO, type ChatMessage, type ModelIoProtocol, type ServerEngineInfo } from '../../../actors/model-io/protocol.js';
import { defineActor, Supervisor } from '../../../runtime/index.js';
import { ReikaError } from '../../../runtime/errors.js';
import { gitRepo } from '../../helpers/temp.js';
import { fakeIndexer } from '../../helpers/fake-indexer.js';
import { sessionDoctor } from '../../../cli/doctor/session-doctor.js';

/**
 * The engine's facts reach a session when they come: detection held back past the first turn
 * (a slow server), then given with a template probe that wants the system text in the first user
 * message and keeps reasoning. The conversation adopts them once, from its next request; what
 * was sent stays as it was sent.
 */
test('a template probe that ends after the first request is adopted once, from the next request on', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  const chats: ChatMessage[][] = [];
  let release!: (info: ServerEngineInfo) => void;
  const detected = new Promise<ServerEngineInfo>((resolve) => (release = resolve));
  await supervisor.register(
    INDEXER,
    fakeIndexer({ 'src/a.ts': 'a' }),
  );
  await supervisor.register(
    MODEL_IO,
    defineActor<ModelIoProtocol>({
      handle(request) {
        if (request.type === 'discover') return { models: ['m'], contextWindow: 32_768 };
        if (request.type === 'detect') return detected;
        chats.push(request.messages);
        const n = chats.length;
        // The second request re-prefills all (the system text moved); the others only what they append.
        const usage = { promptTokens: 1000 * n, completionTokens: 5, cachedTokens: n === 2 ? 0 : 1000 * (n - 1), cacheFrom: 'usage' as const };
        return { text: `answer ${n}`, reasoning: `thought ${n}`, toolCalls: [], finishReason: 'stop', usage, notices: [] };
      },
    }),
  );
  const config = loadConfig({ cwd: root, env: { REIKA_MODEL: 'm', REIKA_BASE_URL: 'http://127.0.0.1:9/v1' }, home: root });
  const session = new Session({ runtime: { supervisor, indexerReady: Promise.resolve() }, config, cwd: root, headless: true });
  await session.run('first');
  t.is(chats[0]![0]!.role, 'system', 'the first request went before the engine said anything');
  release({
    kind: 'server',
    engine: 'llama.cpp',
    baseUrl: 'http://127.0.0.1:9/v1',
    answered: ['/v1/models', '/props'],
    chatTemplate: '{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}',
    templateProbe: { placement: 'first-user', keepsReasoning: true, findings: [{ kind: 'system-placement', message: 'moved' }] },
  });
  await session.engineDetected();
  while (session.doctorFacts().placement !== 'first-user') await new Promise((resolve) => setImmediate(resolve));
  await session.run('second');
  await session.run('third');
  const [, second, third] = chats;
  t.is(second![0]!.role, 'user');
  t.regex(String(second![0]!.content), /^[\s\S]+\n\nfirst$/, 'the system text opens the first user message');
  t.false(second!.some((m) => m.role === 'system'));
  t.deepEqual(second![1], { role: 'assistant', content: 'answer 1' }, 'a reply recorded before the facts came has no reasoning');
  t.deepEqual(third!.slice(0, second!.length), second, 'from then on every request extends the previous one');
  t.deepEqual(third![3], { role: 'assistant', content: 'answer 2', reasoning_content: 'thought 2' });
  t.like(session.doctorFacts(), { placement: 'first-user', reasoningHistory: true });
  // /doctor from what the session knows.
  const lines = await sessionDoctor(session, config);
  t.true(lines.some((line) => /^engine: +llama\.cpp \(llama-server\)$/.test(line)), lines.join('\n'));
  t.true(lines.some((line) => /^cache: +3 requests · 6000 prompt tokens, 33% from the cache, 4000 prefilled · 1 request re-prefilled more than was appended \(worst: request 2, 2000 tokens for 1000 new: the engine no longer had/.test(line)), lines.join('\n'));
  t.true(lines.some((line) => /^history: +reasoning sent back .*; system prompt in the first user message$/.test(line)), lines.join('\n'));
  t.true(lines.some((line) => line === 'template:   moved'));
  t.true(lines.some((line) => line === 'window:     32768 tokens, from the server, at connect'), lines.join('\n'));
  t.true(lines.includes('lsp:        not available in this session'), 'the language servers have their line');
});

test('/doctor says what compaction cost the session, and on a llama.cpp that prefilled the kept history again recommends --cache-reuse', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  let previous = '';
  await supervisor.register(
    INDEXER,
    fakeIndexer({ 'src/a.ts': 'a' }),
  );
  await supervisor.register(
    MODEL_IO,
    defineActor<ModelIoProtocol>({
      handle(request) {
        if (request.type === 'discover') return { models: ['m'], contextWindow: 32_768 };
        if (request.type === 'detect') return { kind: 'server', engine: 'llama.cpp', baseUrl: 'http://127.0.0.1:9/v1', answered: ['/props'], totalSlots: 1 } satisfies ServerEngineInfo;
        // An engine without --cache-reuse: it takes from its cache the longest common prefix, nothing else (4 characters a token).
        const prompt = JSON.stringify(request.tools) + JSON.stringify(request.messages);
        let common = 0;
        while (common < prompt.length && prompt[common] === previous[common]) common++;
        previous = prompt;
        const promptTokens = Math.ceil(prompt.length / 4);
        const cachedTokens = Math.floor(common / 4);
        const usage = { promptTokens, completionTokens: 5, cachedTokens, prefilledTokens: promptTokens - cachedTokens, cacheFrom: 'timings' as const };
        return { text: `Answer ${request.messages.length}: ${'the parser reads the tokens one by one. '.repeat(60)}`, reasoning: '', toolCalls: [], finishReason: 'stop', usage, notices: [] };
      },
    }),
  );
  const config = loadConfig({ cwd: root, env: { REIKA_MODEL: 'm', REIKA_BASE_URL: 'http://127.0.0.1:9/v1' }, home: root });
  const session = new Session({ runtime: { supervisor, indexerReady: Promise.resolve() }, config, cwd: root, headless: true });
  await session.engineDetected();
  for (const question of ['first', 'second', 'third']) await session.run(`The ${question} question: ${'why does the parser read the tokens one by one? '.repeat(50)}`);
  t.truthy(await session.compact());
  await session.run('fourth question');
  const cost = session.info().cache.compaction;
  t.is(cost.events, 1);
  t.true(cost.keptTokens > 400, `${cost.keptTokens} tokens kept`);
  // What it kept as sent (the third question; its answer was never sent) was prefilled again, within the estimate's error.
  t.true(Math.abs(cost.reprefilledTokens - cost.keptTokens) < 0.1 * cost.keptTokens, `${cost.reprefilledTokens} re-prefilled of ${cost.keptTokens} kept`);
  const lines = await sessionDoctor(session, config);
  t.true(lines.some((line) => /^cache: .* · 1 compaction event: \d+ tokens kept verbatim, \d+ prefilled again by the engine/.test(line)), lines.join('\n'));
  t.true(lines.some((line) => /^tip: Compaction cost the engine a prefill of the kept history: at 1 compaction event the engine prefilled again \d+ tokens/.test(line)), lines.join('\n'));
  t.true(lines.includes('     start llama-server with --cache-reuse 64.'), lines.join('\n'));
});

test('/doctor in a session that could not connect tries again, says why it failed and how to fix it, and once the server is up says nothing of it', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  let up = false;
  let discovers = 0;
  await supervisor.register(INDEXER, fakeIndexer({ 'src/a.ts': 'a' }));
  await supervisor.register(
    MODEL_IO,
    defineActor<ModelIoProtocol>({
      handle(request) {
        if (request.type === 'discover') {
          discovers++;
          if (!up) throw new ReikaError('REIKA_ERR_SERVER_UNREACHABLE', 'No model server answers at http://127.0.0.1:9/v1 (connection refused) — start one or set REIKA_BASE_URL.');
          return { models: ['m'], contextWindow: 32_768 };
        }
        if (request.type === 'detect') return { kind: 'server', engine: 'llama.cpp', baseUrl: 'http://127.0.0.1:9/v1', answered: ['/props'] } satisfies ServerEngineInfo;
        return { text: 'hi', reasoning: '', toolCalls: [], finishReason: 'stop', usage: { promptTokens: 10, completionTokens: 1, cachedTokens: 0, cacheFrom: 'usage' as const }, notices: [] };
      },
    }),
  );
  const config = loadConfig({ cwd: root, env: { REIKA_BASE_URL: 'http://127.0.0.1:9/v1' }, home: root });
  const session = new Session({ runtime: { supervisor, indexerReady: Promise.resolve() }, config, cwd: root, headless: true });
  t.is((await session.run('first')).status, 'error');
  const before = discovers;
  const down = await sessionDoctor(session, config);
  t.is(discovers, before + 1, 'the server was asked again');
  t.true(down.includes('✗ No model server answers at http://127.0.0.1:9/v1 (connection refused) — start one or set REIKA_BASE_URL.'), down.join('\n'));
  t.true(down.some((line) => /^ {2}fix: start the server \(e\.g\. llama-server/.test(line)), down.join('\n'));
  t.regex(down[0]!, /^server: +http:\/\/127\.0\.0\.1:9\/v1 — not reachable$/, 'the report opens with the server, nothing placed before it');
  t.false(down.some((line) => line.startsWith('history:')), 'no history line without a cache line to follow');
  up = true;
  const fine = await sessionDoctor(session, config);
  t.false(fine.some((line) => /No model server answers/.test(line)), fine.join('\n'));
  t.true(fine.some((line) => /^engine: +llama\.cpp/.test(line)), fine.join('\n'));
  t.true(fine.some((line) => /^model: +m\b/.test(line)), fine.join('\n'));
  const asked = discovers;
  await sessionDoctor(session, config);
  t.is(discovers, asked, 'a session that is connected asks nothing new');
  t.is((await session.run('second')).status, 'answered');
});

test('/doctor names a refused key and an unset model with their own fixes', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const cases = [
    { error: new ReikaError('REIKA_ERR_AUTH', 'The server at http://127.0.0.1:9/v1 refused the API key (401).'), fix: /^ {2}fix: set REIKA_API_KEY to a key this server accepts\.$/ },
    { error: new ReikaError('REIKA_ERR_MODEL_UNSET', 'REIKA_MODEL is not set and the server at http://127.0.0.1:9/v1 offers 2 models (a, b) — set REIKA_MODEL.'), fix: /^ {2}fix: set REIKA_MODEL\.$/ },
  ];
  for (const { error, fix } of cases) {
    const supervisor = new Supervisor();
    t.teardown(() => supervisor.close());
    await supervisor.register(INDEXER, fakeIndexer({ 'src/a.ts': 'a' }));
    await supervisor.register(
      MODEL_IO,
      defineActor<ModelIoProtocol>({
        handle(request) {
          if (request.type === 'discover') throw error;
          throw new Error(`no ${request.type} expected`);
        },
      }),
    );
    const config = loadConfig({ cwd: root, env: { REIKA_BASE_URL: 'http://127.0.0.1:9/v1' }, home: root });
    const session = new Session({ runtime: { supervisor, indexerReady: Promise.resolve() }, config, cwd: root, headless: true });
    const lines = await sessionDoctor(session, config);
    t.true(lines.includes(`✗ ${error.message}`), lines.join('\n'));
    t.true(lines.some((line) => fix.test(line)), lines.join('\n'));
    t.false(lines.some((line) => /No model server answers/.test(line)), 'the server answered: it is not called unreachable');
  }
});
