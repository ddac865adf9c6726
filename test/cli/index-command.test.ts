import test from 'ava';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { tempDir, writeTree } from '../helpers/temp.js';
import { gitEnv, gitListing, oracleRepo, TRICKY_REPOS } from '../helpers/git-oracle.js';
import { reikaBin } from '../helpers/binary.js';
import { testSite, watchChild } from '../helpers/watchdog.js';
import { pathToFileURL } from 'node:url';

const binary = pathToFileURL(reikaBin);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `reika` binary with no model server in reach and git's (empty) oracle home. */
function reika(args: string[], cwd?: string): Promise<Run> {
  const site = testSite();
  return new Promise((resolve) => {
    const env = { ...gitEnv, REIKA_BASE_URL: 'http://127.0.0.1:9/v1' };
    const child = execFile(process.execPath, [binary.pathname, ...args], { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr: watch.note ? `${watch.note}\n${stderr}` : stderr });
    });
    const watch = watchChild(child, `reika ${args.join(' ')}`, { site });
  });
}

for (const repo of TRICKY_REPOS) {
  test(`reika index equals git ls-files -co --exclude-standard on ${repo.title}`, async (t) => {
    const root = oracleRepo(repo.committed, repo.untracked, repo.exclude);
    const run = await reika(['index', root]);
    t.is(run.code, 0, run.stderr);
    t.is(run.stderr, '');
    t.deepEqual(run.stdout.split('\n').filter((line) => line !== '').sort(), gitListing(root));
  });
}

test('reika index with no folder indexes the current one, shallow first', async (t) => {
  const root = writeTree(tempDir(), { 'src/deep/x.ts': '', 'src/a.ts': '', 'README.md': '' });
  const run = await reika(['index'], root);
  t.is(run.code, 0);
  t.is(run.stdout, 'README.md\nsrc/a.ts\nsrc/deep/x.ts\n');
});

test('reika index --json gives paths, capped and stats', async (t) => {
  const root = writeTree(tempDir(), { 'a.ts': '', 'b/c.md': '', 'node_modules/x.js': '' });
  const run = await reika(['index', '--json', root]);
  t.is(run.code, 0);
  const parsed = JSON.parse(run.stdout) as { paths: string[]; capped: string[]; stats: Record<string, number> };
  t.deepEqual(Object.keys(parsed).sort(), ['capped', 'paths', 'stats']);
  t.deepEqual(parsed.paths, ['a.ts', 'b/c.md']);
  t.deepEqual(parsed.capped, []);
  t.is(parsed.stats.files, 2);
  t.is(parsed.stats.directories, 2);
  t.is(parsed.stats.ignored, 1);
});

test('a missing folder is one line on stderr and exit 1, never a stack trace', async (t) => {
  const missing = join(tempDir(), 'nope');
  const run = await reika(['index', missing]);
  t.is(run.code, 1);
  t.is(run.stdout, '');
  t.is(run.stderr, `reika: ${missing} does not exist\n`);
});

test('an unknown option is a usage error', async (t) => {
  const run = await reika(['index', '--frobnicate']);
  t.is(run.code, 2);
  t.regex(run.stderr, /^reika: unknown option --frobnicate \(usage: reika index \[DIR\] \[--json\]\)\n$/);
});
