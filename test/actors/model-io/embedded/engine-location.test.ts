import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binaryPackage, engineFolder, installedEngineEntry } from '../../../../actors/model-io/embedded/engine-location.js';
import { loadNodeLlamaCpp } from '../../../../actors/model-io/embedded/load.js';
import { reikaBin } from '../../../helpers/binary.js';
import { tempDir } from '../../../helpers/temp.js';
import { cleanEnv } from '../../../cli/headless-helpers.js';

/**
 * Where the embedded engine comes from: `reika engine install` puts node-llama-cpp in reika's data
 * folder, and the loader takes it from there before one installed beside reika.
 */

/** A stand-in node-llama-cpp package in an engine folder (the real one is 74 MB). */
function stubEngine(): string {
  const folder = join(tempDir('reika-data-'), 'reika', 'engine');
  const packageDir = join(folder, 'node_modules', 'node-llama-cpp');
  mkdirSync(join(packageDir, 'dist'), { recursive: true });
  writeFileSync(join(packageDir, 'package.json'), JSON.stringify({ name: 'node-llama-cpp', version: '3.21.1', type: 'module', exports: { '.': { import: './dist/index.js' } } }));
  writeFileSync(join(packageDir, 'dist', 'index.js'), "export const origin = 'the data folder';\nexport async function getLlama() {}\n");
  return folder;
}

test('the engine folder is in the data folder, XDG_DATA_HOME first', (t) => {
  t.is(engineFolder({ XDG_DATA_HOME: '/x/data', HOME: '/home/u' }), '/x/data/reika/engine');
  t.is(engineFolder({ XDG_DATA_HOME: 'relative', HOME: '/home/u' }), '/home/u/.local/share/reika/engine');
});

test("each platform gets node-llama-cpp's CPU build of its own, and a platform without one none", (t) => {
  t.is(binaryPackage('linux', 'x64'), '@node-llama-cpp/linux-x64');
  t.is(binaryPackage('darwin', 'arm64'), '@node-llama-cpp/mac-arm64-metal');
  t.is(binaryPackage('win32', 'x64'), '@node-llama-cpp/win-x64');
  t.is(binaryPackage('freebsd', 'x64'), undefined);
});

test('node-llama-cpp installed in the data folder is loaded before one beside reika', async (t) => {
  const folder = stubEngine();
  t.truthy(installedEngineEntry(folder));
  const loaded = (await loadNodeLlamaCpp('node-llama-cpp', folder)) as unknown as { origin?: string };
  t.is(loaded.origin, 'the data folder');
  t.is(installedEngineEntry(join(tempDir('reika-data-'), 'reika', 'engine')), undefined, 'an empty folder has none');
});

function reika(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [reikaBin, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('reika engine says where the engine is, and engine install says in one line when the registry cannot be reached', async (t) => {
  const data = tempDir('reika-data-');
  const status = await reika(['engine'], { XDG_DATA_HOME: data });
  t.is(status.code, 0);
  t.regex(status.stdout, /the embedded engine is not installed; `reika engine install` installs it in .*reika\/engine/);
  // A registry nothing listens on: npm fails at once (no retries), and reika says so in one line.
  const failed = await reika(['engine', 'install'], { XDG_DATA_HOME: data, npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0', npm_config_cache: tempDir('reika-npm-cache-'), npm_config_offline: 'false' });
  t.is(failed.code, 1);
  const lines = failed.stderr.trim().split('\n');
  t.is(lines.length, 2, failed.stderr); // what it does, then why it could not
  t.regex(lines[1]!, /^reika engine install: could not install node-llama-cpp 3\.21\.1 from the npm registry \(.+\)$/);
});
