import test from 'ava';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ImageError } from '../../actors/images/image.js';
import { readClipboardImage } from '../../cli/clipboard.js';
import { TINY_PNG } from '../helpers/png.js';
import { tempDir } from '../helpers/temp.js';
import { watchChild } from '../helpers/watchdog.js';

/** The Linux clipboard path, for real: Xvfb as the display, xclip as the helper. */

const have = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
const canRun = process.platform === 'linux' && have('Xvfb') && have('xclip');
if (!canRun) console.log('clipboard tests skipped: they need Linux with Xvfb and xclip (.ci/run installs both)');
const maybe = canRun ? test.serial : test.skip;

let xvfb: ChildProcess | undefined;
// Xvfb picks a free display itself (-displayfd): a number derived from the pid could be the one
// another test run on this machine (another worktree's npm test) is using, clipboard and all.
let display = '';
const env = () => ({ ...process.env, DISPLAY: display, WAYLAND_DISPLAY: '' });

test.before(async () => {
  if (!canRun) return;
  xvfb = spawn('Xvfb', ['-displayfd', '3', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  watchChild(xvfb, 'Xvfb', { limitMs: 600_000 });
  // It writes the display's number once clients can connect: no polling.
  let said = '';
  let errors = '';
  xvfb.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const ready = xvfb.stdio[3] as Readable;
  await new Promise<void>((resolve, reject) => {
    ready.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
      if (said.includes('\n')) resolve();
    });
    xvfb!.once('exit', (code) => reject(new Error(`Xvfb exited with ${code} before it was ready: ${errors.trim()}`)));
  });
  display = `:${said.trim()}`;
});

test.after.always(async () => {
  if (!xvfb) return;
  xvfb.kill();
  await once(xvfb, 'exit');
});

/**
 * Puts data on the clipboard; xclip keeps serving it until the next owner takes over. xclip forks
 * before its child takes the selection, so the previous test's owner can still answer for a
 * moment after it returns (seen once on a loaded machine: the text test read the PNG's targets,
 * then the text): wait until the clipboard gives back what was offered.
 */
async function offer(type: string, data: Buffer): Promise<void> {
  const file = join(tempDir(), 'offer');
  writeFileSync(file, data);
  // With inherited pipes spawnSync would wait for the forked child that owns the selection.
  const result = spawnSync('xclip', ['-selection', 'clipboard', '-t', type, '-i', file], { env: env(), stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`xclip failed with status ${result.status}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const now = spawnSync('xclip', ['-selection', 'clipboard', '-t', type, '-o'], { env: env(), timeout: 10_000 });
    if (now.status === 0 && now.stdout.equals(data)) return;
    if (Date.now() > deadline) throw new Error(`the clipboard did not take the offered ${type} within a minute`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

maybe('a PNG on the clipboard is read as an image', async (t) => {
  await offer('image/png', TINY_PNG);
  const image = await readClipboardImage('linux', env());
  t.is(image.mime, 'image/png');
  t.is(image.source, 'clipboard');
  t.deepEqual(image.bytes, TINY_PNG);
});

maybe('text on the clipboard is reported as no image', async (t) => {
  await offer('UTF8_STRING', Buffer.from('just words'));
  await t.throwsAsync(readClipboardImage('linux', env()), { instanceOf: ImageError, message: 'the clipboard holds no image' });
});

maybe('a missing xclip is named with what to install', async (t) => {
  await t.throwsAsync(readClipboardImage('linux', { ...env(), PATH: tempDir() }), { instanceOf: ImageError, message: /install xclip/ });
});

test('no display at all is said plainly', async (t) => {
  await t.throwsAsync(readClipboardImage('linux', { PATH: process.env.PATH }), { instanceOf: ImageError, message: /no display/ });
});
