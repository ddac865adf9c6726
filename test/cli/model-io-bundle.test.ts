import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MODEL_IO, type ChatReply, type DiscoverReply, type ModelIoRequest } from '../../actors/model-io/protocol.js';
import { discardPrespawned, prespawnThread } from '../../runtime/prespawn.js';
import { client, Supervisor } from '../../runtime/index.js';
import { startScriptedServer, vllmModel } from '../helpers/scripted-server.js';

/**
 * What ships starts the model-io thread on one CommonJS file (scripts/bundle.mjs, from
 * cli/model-io-entry.ts): a CommonJS worker boots without Node's ES module loader, and this thread
 * is the one the first request waits for. It must be the model-io actor the generic host loads.
 */

const bundled = new URL('../../bundle/cli/model-io-entry.cjs', import.meta.url);
const actorModule = new URL('../../actors/model-io/actor.js', import.meta.url);

test.after.always(() => discardPrespawned());

test('the shipped model-io thread entry is one CommonJS file that loads only Node built-ins and packages, none of them an ES module', (t) => {
  const text = readFileSync(fileURLToPath(bundled), 'utf8');
  t.notRegex(text, /^\s*(import|export)\s/m, 'no ES module syntax');
  const required = [...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((match) => match[1]!);
  t.true(required.includes('node:worker_threads'));
  t.deepEqual(required.filter((name) => name.startsWith('.')), [], 'no chunk is required: everything is in the file');
  t.false(required.includes('nanoid'), 'nanoid (an ES module package) is bundled in');
});

test('a model-io thread started from the shipped entry is adopted by the runtime and streams and discovers', async (t) => {
  const server = await startScriptedServer([{ content: 'Hello from the bundle' }], { models: [vllmModel('m', 8192)] });
  const early = prespawnThread(MODEL_IO, actorModule, bundled);
  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: actorModule });
    t.not(prespawnThread(MODEL_IO, actorModule, bundled), early, 'the early thread was adopted (a new one starts for the name)');
    const endpoint = { baseUrl: server.url, model: 'm', requestTimeoutMs: 5_000 };
    const reply = (await client(supervisor, MODEL_IO).request({ type: 'chat', endpoint, messages: [{ role: 'user', content: 'hi' }], tools: [] } satisfies ModelIoRequest)) as ChatReply;
    t.is(reply.text, 'Hello from the bundle');
    const discovered = (await client(supervisor, MODEL_IO).request({ type: 'discover', endpoint } satisfies ModelIoRequest)) as DiscoverReply;
    t.deepEqual(discovered, { models: ['m'], contextWindow: 8192 });
  } finally {
    await supervisor.close();
    await server.close();
  }
});
