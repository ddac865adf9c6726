import test from 'ava';
import { execFile } from 'node:child_process';
import { gitRepo, tempDir, writeTree } from '../helpers/temp.js';
import { CENTRAL_MODULE, sampleRepo } from '../actors/indexer/repo-map-sample.js';
import { reikaBin } from '../helpers/binary.js';
import { testSite, watchChild } from '../helpers/watchdog.js';
import { pathToFileURL } from 'node:url';

const binary = pathToFileURL(reikaBin);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `reika` binary with no model server anywhere in reach. */
function reika(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const site = testSite();
  return new Promise((resolve) => {
    const env = { ...process.env, REIKA_BASE_URL: 'http://127.0.0.1:9/v1', REIKA_REPO_MAP_BUDGET: '', REIKA_CONTEXT_WINDOW: '', ...options.env };
    const child = execFile(process.execPath, [binary.pathname, ...args], { cwd: options.cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr: watch.note ? `${watch.note}\n${stderr}` : stderr });
    });
    const watch = watchChild(child, `reika ${args.join(' ')}`, { site });
  });
}

const repo = gitRepo({
  ...sampleRepo({ packages: 8, modulesPerPackage: 5, testsPerPackage: 2 }),
  '.gitignore': 'ignored/\n',
  'ignored/secret.ts': 'export function leakedSecret() {}\n',
  'README.md': '# sample\n',
});

test('reika map prints the ranked map of a folder, central module first, ignored files left out', async (t) => {
  const run = await reika(['map', repo]);
  t.is(run.code, 0, run.stderr);
  t.is(run.stderr, '');
  const lines = run.stdout.trimEnd().split('\n');
  t.is(lines[0], `${CENTRAL_MODULE}: ServiceDescriptor, ServiceRegistry, registerService`);
  t.false(run.stdout.includes('leakedSecret'));
  t.false(run.stdout.includes('README.md'));
  t.true(run.stdout.length <= 3_200 * 4 + 1);
});

test('reika map with no folder maps the current one and gives the same bytes every time', async (t) => {
  const first = await reika(['map'], { cwd: repo });
  const second = await reika(['map', repo]);
  t.is(first.code, 0, first.stderr);
  t.is(first.stdout, second.stdout);
});

test('reika map --json gives every ranked file with its score and symbols', async (t) => {
  const run = await reika(['map', '--json', repo]);
  t.is(run.code, 0, run.stderr);
  const parsed = JSON.parse(run.stdout) as { budgetTokens: number; omitted: number; files: { path: string; score: number; symbols: string[] }[]; text: string };
  t.deepEqual(Object.keys(parsed).sort(), ['budgetTokens', 'files', 'omitted', 'text']);
  t.is(parsed.budgetTokens, 3_200);
  t.deepEqual(parsed.files[0], { path: CENTRAL_MODULE, score: parsed.files[0]!.score, symbols: ['ServiceDescriptor', 'ServiceRegistry', 'registerService'] });
  t.true(parsed.files[0]!.score > parsed.files[1]!.score);
  for (const [index, file] of parsed.files.slice(1).entries()) t.true(file.score <= parsed.files[index]!.score);
  t.is(parsed.text, (await reika(['map', repo])).stdout.trimEnd());
});

test('REIKA_REPO_MAP_BUDGET pins the budget, else the context window sets it', async (t) => {
  const pinned = await reika(['map', repo], { env: { REIKA_REPO_MAP_BUDGET: '100', REIKA_CONTEXT_WINDOW: '200000' } });
  t.is(pinned.code, 0, pinned.stderr);
  t.true(pinned.stdout.length <= 401, `${pinned.stdout.length} characters`);
  t.regex(pinned.stdout.trimEnd().split('\n').at(-1)!, /^… \d+ more files not shown$/);
  const windowed = await reika(['map', '--json', repo], { env: { REIKA_CONTEXT_WINDOW: '200000' } });
  t.is((JSON.parse(windowed.stdout) as { budgetTokens: number }).budgetTokens, 10_000);
  const dotenv = writeTree(tempDir(), { '.env': 'REIKA_REPO_MAP_BUDGET=4000\n', 'a.py': 'def alpha():\n    pass\n' });
  const fromFile = await reika(['map', '--json', dotenv]);
  t.is((JSON.parse(fromFile.stdout) as { budgetTokens: number }).budgetTokens, 4_000);
});

test('bad input gets one clear line and a failing exit code, never a stack trace', async (t) => {
  const missing = await reika(['map', `${repo}/nope`]);
  t.is(missing.code, 1);
  t.is(missing.stderr, `reika: ${repo}/nope does not exist\n`);
  const option = await reika(['map', '--frobnicate']);
  t.is(option.code, 2);
  t.is(option.stderr, 'reika: unknown option --frobnicate (usage: reika map [DIR] [--json])\n');
  const budget = await reika(['map', repo], { env: { REIKA_REPO_MAP_BUDGET: 'lots' } });
  t.is(budget.code, 1);
  t.is(budget.stderr, 'reika: REIKA_REPO_MAP_BUDGET must be a non-negative number, not "lots"\n');
});

test('a folder without source files gives an empty map and says so', async (t) => {
  const run = await reika(['map', writeTree(tempDir(), { 'notes.md': '# hi\n' })]);
  t.is(run.code, 0);
  t.is(run.stdout, '');
  t.regex(run.stderr, /^reika map: no source files in /);
});
