import test from 'ava';
import { loadConfig } from '../../../actors/config/load-config.js';
import { toImage } from '../../../actors/images/image.js';
import { attachImage, visionEndpoint } from '../../../actors/images/recognize.js';
import { DESCRIBE_PROMPT } from '../../../actors/images/describe.js';
import { Supervisor } from '../../../runtime/index.js';
import { TINY_PNG } from '../../helpers/png.js';
import { startScriptedServer } from '../../helpers/scripted-server.js';
import { tempDir } from '../../helpers/temp.js';
import { MODEL_IO } from '../../../actors/model-io/protocol.js';

const modelIo = new URL('../../../actors/model-io/actor.js', import.meta.url);

async function withModelIo(run: (supervisor: Supervisor) => Promise<void>): Promise<void> {
  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: modelIo });
    await run(supervisor);
  } finally {
    await supervisor.close();
  }
}

test('describe mode sends the image to the vision model, falling back to the main URL and key', async (t) => {
  const main = await startScriptedServer([{ content: 'Text: `TypeError: x is undefined`. A terminal with a red error.' }]);
  try {
    const config = loadConfig({ cwd: tempDir(), home: tempDir(), env: { REIKA_BASE_URL: main.url, REIKA_API_KEY: 'main-key', REIKA_MODEL: 'coder', REIKA_VISION_MODEL: 'qwen-vl' } });
    t.deepEqual(visionEndpoint({ config, profile: config.active }), { baseUrl: main.url, apiKey: 'main-key', model: 'qwen-vl', modelVariable: 'REIKA_VISION_MODEL', requestTimeoutMs: config.requestTimeoutMs });
    const own = loadConfig({ cwd: tempDir(), home: tempDir(), env: { REIKA_PROFILES: 'cloud', REIKA_PROFILE: 'cloud', REIKA_CLOUD_API_KEY: 'cloud-key', REIKA_VISION_MODEL: 'qwen-vl' } });
    t.like(visionEndpoint({ config: own, profile: own.active }), { keyVariable: 'REIKA_CLOUD_API_KEY', urlVariable: 'REIKA_CLOUD_BASE_URL' }, "errors name the profile's variables");
    const vision = loadConfig({ cwd: tempDir(), home: tempDir(), env: { REIKA_VISION_API_KEY: 'vk', REIKA_VISION_MODEL: 'qwen-vl' } });
    t.is(visionEndpoint({ config: vision, profile: vision.active })?.keyVariable, 'REIKA_VISION_API_KEY');
    await withModelIo(async (supervisor) => {
      const image = toImage(TINY_PNG, 'clipboard');
      const attachment = await attachImage(image, { config, profile: config.active, router: supervisor, pasted: true });
      t.deepEqual(attachment, { kind: 'text', source: 'clipboard', text: '[image from clipboard, described by qwen-vl]\nText: `TypeError: x is undefined`. A terminal with a red error.' });
    });
    const [request] = main.chatRequests();
    t.is(request!.json.model, 'qwen-vl');
    t.is(request!.headers.authorization, 'Bearer main-key');
    t.deepEqual(request!.json.messages[0].content, [
      { type: 'text', text: DESCRIBE_PROMPT },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_PNG.toString('base64')}` } },
    ]);
  } finally {
    await main.close();
  }
});

test('a separate vision server and key are used when set', async (t) => {
  const main = await startScriptedServer([]);
  const vision = await startScriptedServer([{ content: 'A diagram of three boxes.' }]);
  try {
    const config = loadConfig({
      cwd: tempDir(),
      home: tempDir(),
      env: { REIKA_BASE_URL: main.url, REIKA_API_KEY: 'main-key', REIKA_VISION_MODEL: 'llava', REIKA_VISION_BASE_URL: vision.url, REIKA_VISION_API_KEY: 'vision-key' },
    });
    await withModelIo(async (supervisor) => {
      const attachment = await attachImage(toImage(TINY_PNG, 'shots/a.png'), { config, profile: config.active, router: supervisor, pasted: false });
      t.is(attachment.kind, 'text');
      t.regex((attachment as { text: string }).text, /described by llava\]\nA diagram of three boxes\./);
    });
    t.is(main.chatRequests().length, 0);
    t.is(vision.chatRequests()[0]!.headers.authorization, 'Bearer vision-key');
  } finally {
    await Promise.all([main.close(), vision.close()]);
  }
});

test('native mode keeps a pasted image as an image part with a note, but an @file image is recognised', async (t) => {
  const config = loadConfig({ cwd: tempDir(), home: tempDir(), env: { REIKA_VISION: 'native' } });
  const image = toImage(TINY_PNG, 'clipboard');
  const pasted = await attachImage(image, { config, profile: config.active, router: { request: () => Promise.reject(new Error('no model call expected')) }, pasted: true });
  t.is(pasted.kind, 'native');
  t.regex((pasted as { note: string }).note, /not transcribed/);
  // An @file image always goes through recognition: here OCR, unavailable on Linux.
  const file = attachImage(toImage(TINY_PNG, 'a.png'), { config, profile: config.active, router: { request: () => Promise.reject(new Error('unused')) }, pasted: false, platform: 'linux' });
  await t.throwsAsync(file, { message: /OCR unavailable on Linux/ });
});
