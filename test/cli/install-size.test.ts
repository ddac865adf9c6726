import test from 'ava';
import { execFile, type ExecFileException } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tinyModel } from '../helpers/embedded.js';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo, tempDir } from '../helpers/temp.js';
import { cleanEnv } from './headless-helpers.js';

/**
 * The package as a user gets it: `npm pack` of this checkout (its built dist/), installed with
 * `npm install -g` into a clean prefix from the npm registry. It stays small (the embedded
 * engine is not in it: `reika engine install` adds it), carries what a package should, and the
 * installed binary runs: --version, doctor and -p against the scripted server (a tool call, and an
 * edit checked by the typescript-language-server it installed), and --model FILE.gguf says in one
 * line how to get the engine.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const LIMIT_MB = 60;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024, timeout: 280_000 }, (error: ExecFileException | null, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

function sizeOf(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += sizeOf(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

test(`a packed tarball installs globally in a clean prefix at ≤ ${LIMIT_MB} MB and runs --version, doctor and -p`, async (t) => {
  t.timeout(300_000);
  const work = tempDir('reika-pack-');
  // The dist/ this test runs from is the build; packing it again must not rebuild it under other tests.
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: repo });
  t.is(packed.code, 0, packed.stderr);
  const [info] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
  const files = info.files.map((file) => file.path);
  t.true(files.includes('LICENSE') && files.includes('README.md'), 'a LICENSE and the README');
  t.deepEqual(files.filter((path) => path.endsWith('.map')), [], 'no source maps (they point at sources the package does not ship)');
  // macOS's and Windows' disks ignore case: two paths differing only in it would be one file there.
  const lower = new Set<string>();
  t.deepEqual(files.filter((path) => lower.size === lower.add(path.toLowerCase()).size), [], 'paths that differ only in case');
  t.deepEqual(files.filter((path) => path.startsWith('dist/bundle/chunks/') && path !== path.toLowerCase()), [], "the bundle's chunk names are lower case (hashes included)");
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { repository?: { url?: string }; dependencies: Record<string, string>; optionalDependencies?: Record<string, string> };
  t.truthy(manifest.repository?.url, 'a repository field');
  t.false('node-llama-cpp' in manifest.dependencies || 'node-llama-cpp' in (manifest.optionalDependencies ?? {}), 'the embedded engine is installed on demand');
  // Every relative link of the README resolves inside the package.
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!).filter((link) => !/^[a-z]+:/.test(link));
  t.true(links.length > 0);
  for (const link of links) t.true(files.includes(link.replace(/^\.\//, '')), `README link ${link} is in the package`);

  const prefix = join(work, 'global');
  const installed = await run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', join(work, info.filename)], { cwd: work });
  if (installed.code !== 0 && /ENOTFOUND|ECONNREFUSED|EAI_AGAIN|ETIMEDOUT|network/i.test(installed.stderr)) return t.log(`skipped: the npm registry cannot be reached (${installed.stderr.split('\n')[0]})`);
  t.is(installed.code, 0, installed.stderr);
  const megabytes = sizeOf(prefix) / 1024 / 1024;
  t.log(`installed size: ${megabytes.toFixed(1)} MB`);
  t.true(megabytes <= LIMIT_MB, `${megabytes.toFixed(1)} MB`);

  const reika = join(prefix, 'bin', 'reika');
  const home = tempDir('reika-home-');
  const env = (extra: Record<string, string> = {}) => cleanEnv({ HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_STATE_HOME: join(home, 'state'), ...extra });
  const cwd = gitRepo({ 'a.txt': 'a\n' });
  const version = await run(reika, ['--version'], { cwd, env: env() });
  t.is(version.code, 0, version.stderr);
  t.regex(version.stdout, /^reika \S+/);

  const server = await startScriptedServer([{ content: 'Hello from the scripted server.' }]);
  t.teardown(() => server.close());
  const doctor = await run(reika, ['doctor'], { cwd, env: env({ REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model' }) });
  t.regex(doctor.stdout, /scripted-model/, doctor.stderr);
  const headless = await run(reika, ['-p', 'say hello'], { cwd, env: env({ REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model' }) });
  t.is(headless.code, 0, headless.stderr);
  t.regex(headless.stdout, /Hello from the scripted server\./);

  // A tool call, with neither rg nor git on PATH and outside a repository: the executor's process
  // and grep's walk read in the indexer threads, each started from the package's bundle alone.
  const plain = tempDir('reika-plain-');
  for (let i = 0; i < 60; i++) writeFileSync(join(plain, `f${i}.txt`), i % 2 === 0 ? `needle ${i}\n` : 'hay\n');
  const nodeOnly = tempDir('reika-path-');
  symlinkSync(process.execPath, join(nodeOnly, 'node'));
  const toolServer = await startScriptedServer([{ toolCalls: [{ name: 'grep', arguments: { pattern: 'needle' } }] }, { content: 'Found them.' }]);
  t.teardown(() => toolServer.close());
  const withTool = await run(reika, ['-p', 'find the needles'], { cwd: plain, env: env({ PATH: nodeOnly, REIKA_BASE_URL: toolServer.url, REIKA_MODEL: 'scripted-model' }) });
  t.is(withTool.code, 0, withTool.stderr);
  t.regex(withTool.stderr, /grep needle — 30 matches in 30 files/);
  t.regex(withTool.stdout, /Found them\./);
  // TypeScript diagnostics with nothing more installed: the typescript-language-server that came
  // with reika checks an edit with the project's own typescript (the checkout's, linked in); none
  // on PATH (npx puts the checkout's node_modules/.bin there).
  const tsProject = gitRepo({ '.gitignore': 'node_modules\n', 'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }), 'src/main.ts': 'export const n: number = 1;\n' });
  mkdirSync(join(tsProject, 'node_modules'));
  symlinkSync(join(repo, 'node_modules', 'typescript'), join(tsProject, 'node_modules', 'typescript'));
  const editServer = await startScriptedServer([
    { toolCalls: [{ name: 'read', arguments: { path: 'src/main.ts' } }] },
    { toolCalls: [{ name: 'edit', arguments: { path: 'src/main.ts', old_string: '= 1;', new_string: '= "one";' } }] },
    { content: 'Edited.' },
  ]);
  t.teardown(() => editServer.close());
  const edited = await run(reika, ['-p', 'edit it'], { cwd: tsProject, env: env({ PATH: nodeOnly, REIKA_BASE_URL: editServer.url, REIKA_MODEL: 'scripted-model', REIKA_DIAGNOSTICS: 'on', REIKA_DIAGNOSTICS_MS: '120000' }) });
  t.is(edited.code, 0, edited.stderr);
  const told = (editServer.chatRequests().at(-1)!.json.messages as { role: string; content: string }[]).filter((message) => message.role === 'tool').at(-1)!.content;
  t.regex(told, /Errors this change introduced \(typescript-language-server\):\nsrc\/main\.ts:1:\d+ TS2322 /, told);
  // What the package ships names no source map it does not ship.
  const shipped = join(prefix, 'lib', 'node_modules', 'reika');
  const mapped = files.filter((path) => /\.c?js$/.test(path) && /\/\/# sourceMappingURL=/.test(readFileSync(join(shipped, path), 'utf8')));
  t.deepEqual(mapped, [], 'no shipped file points at a source map');

  const gguf = tinyModel();
  const engineLess = await run(reika, ['-p', 'hi', '--model', gguf], { cwd, env: env() });
  t.not(engineLess.code, 0);
  const said = engineLess.stderr.trim().split('\n').filter((line) => !line.startsWith('reika: indexed'));
  t.is(said.length, 1, engineLess.stderr);
  t.regex(said[0]!, /reika engine install/);
});
