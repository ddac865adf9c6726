import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from '../../../actors/session/session.js';
import type { AgentEvent } from '../../../actors/agent/events.js';
import { loadConfig } from '../../../actors/config/load-config.js';
import { IMAGE_TOKENS, toImage } from '../../../actors/images/image.js';
import { startRuntime } from '../../../cli/start-runtime.js';
import { TINY_PNG } from '../../helpers/png.js';
import { startScriptedServer, type ScriptedServer, type WireJson } from '../../helpers/scripted-server.js';
import { gitRepo } from '../../helpers/temp.js';

/** Images through a real session: the model-io actor, a scripted server, a real repo. */

async function sessionFor(t: { teardown(fn: () => Promise<void>): void }, env: Record<string, string>, servers: ScriptedServer[]) {
  const root = gitRepo({ 'README.md': '# demo\n' });
  writeFileSync(join(root, 'shot.png'), TINY_PNG);
  const runtime = startRuntime({ approve: () => ({ decision: 'decline', note: 'declined: test' }), cwd: root });
  t.teardown(async () => {
    await runtime.close();
    await Promise.all(servers.map((server) => server.close()));
  });
  const config = loadConfig({ cwd: root, home: root, env: { REIKA_MODEL: 'coder', REIKA_CONTEXT_WINDOW: '32768', ...env } });
  const session = new Session({ runtime, config, cwd: root, headless: true });
  return { session, root };
}

function imageParts(messages: WireJson[]): number {
  return messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])).filter((part) => part.type === 'image_url').length;
}

test('native mode sends the pasted image as one image part in its turn, and the note afterwards', async (t) => {
  const server = await startScriptedServer([{ content: 'I see a red pixel.' }, { content: 'Still here.' }]);
  const { session } = await sessionFor(t, { REIKA_BASE_URL: server.url, REIKA_VISION: 'native' }, [server]);
  const charged: number[] = [];
  session.subscribe((event: AgentEvent) => {
    if (event.type === 'request') charged.push(session.info().imageTokens);
  });
  const first = await session.run('what is in this picture?', { images: [toImage(TINY_PNG, 'clipboard')] });
  t.is(first.status, 'answered');
  t.deepEqual(charged, [IMAGE_TOKENS], 'the image counts its fixed charge while it is sent');
  await session.run('and now?');
  const [one, two] = server.chatRequests();
  t.is(imageParts(one!.json.messages), 1);
  t.is(imageParts(two!.json.messages), 0);
  const pasteTurn = two!.json.messages.find((m: WireJson) => typeof m.content === 'string' && m.content.startsWith('what is in this picture?'));
  t.regex(pasteTurn.content, /not transcribed/);
  t.is(session.info().imageTokens, 0);
});

test('an @file.png mention goes through the vision model, never as image bytes', async (t) => {
  const main = await startScriptedServer([{ content: 'The screenshot shows an error.' }]);
  const vision = await startScriptedServer([{ content: 'Text: Segmentation fault' }]);
  const { session } = await sessionFor(t, { REIKA_BASE_URL: main.url, REIKA_VISION: 'native', REIKA_VISION_MODEL: 'vl', REIKA_VISION_BASE_URL: vision.url }, [main, vision]);
  const result = await session.run('explain @shot.png please');
  t.is(result.status, 'answered');
  t.is(vision.chatRequests().length, 1);
  t.is(imageParts(vision.chatRequests()[0]!.json.messages), 1);
  const sent = main.chatRequests()[0]!.json.messages;
  t.is(imageParts(sent), 0);
  t.regex(JSON.stringify(sent), /\[image from shot\.png, described by vl\]\\nText: Segmentation fault/);
});

test('on Linux without a vision model, an @file.png says OCR is unavailable and the turn goes on', async (t) => {
  if (process.platform !== 'linux') return t.pass('OCR may be available here');
  const main = await startScriptedServer([{ content: 'ok' }]);
  const { session } = await sessionFor(t, { REIKA_BASE_URL: main.url }, [main]);
  const notices: string[] = [];
  session.subscribe((event: AgentEvent) => event.type === 'notice' && notices.push(event.message));
  const result = await session.run('look at @shot.png');
  t.is(result.status, 'answered', result.error?.message);
  t.deepEqual(notices, ['@shot.png: OCR unavailable on Linux — set REIKA_VISION_MODEL or REIKA_VISION=native']);
  t.regex(JSON.stringify(main.chatRequests()[0]!.json.messages), /image not attached — @shot\.png: OCR unavailable on Linux/);
});

test('/model to a profile with REIKA_<NAME>_VISION=native switches native images on, and back off', async (t) => {
  if (process.platform !== 'linux') return t.pass('OCR may be available here');
  const server = await startScriptedServer([{ content: 'one' }, { content: 'two' }]);
  const { session } = await sessionFor(t, { REIKA_BASE_URL: server.url, REIKA_PROFILES: 'text,vl', REIKA_TEXT_MODEL: 'coder', REIKA_VL_MODEL: 'qwen-vl', REIKA_VL_VISION: 'native' }, [server]);
  t.regex(session.imageProblem() ?? '', /OCR unavailable on Linux/);
  await session.switchProfile('vl');
  t.is(session.imageProblem(), undefined);
  await session.run('look', { images: [toImage(TINY_PNG, 'clipboard')] });
  t.is(imageParts(server.chatRequests()[0]!.json.messages), 1);
  t.is(server.chatRequests()[0]!.json.model, 'qwen-vl');
  await session.switchProfile('text');
  t.regex(session.imageProblem() ?? '', /OCR unavailable on Linux/);
});
