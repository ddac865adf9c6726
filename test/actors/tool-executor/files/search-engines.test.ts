import test from 'ava';
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findProgram } from '../../../../actors/tool-executor/files/search/run-program.js';
import { toRustRegex } from '../../../../actors/tool-executor/files/search/rust-regex.js';
import { findCandidates } from '../../../../actors/tool-executor/files/search/candidates.js';
import { grepWith, type GrepOptions } from '../../../../actors/tool-executor/tools/grep.js';
import type { ToolOutcome } from '../../../../actors/tool-executor/tools/tool-env.js';
import { T0008_TREE } from '../../../fixtures/git-ignore-cases.js';
import { git, gitHome, gitListing, oracleRepo, TRICKY_REPOS } from '../../../helpers/git-oracle.js';
import { tempDir, writeTree } from '../../../helpers/temp.js';
import { groups, spill } from '../harness.js';
import { toolSettings } from '../../../helpers/tool-settings.js';

/**
 * grep's three ways to find files — ripgrep, git grep, the walk — give one result: the same
 * matches in the same order, the same spill file, on trees with every case the crawler is held to
 * git on (nested `.gitignore` files with negations, tracked-but-ignored files, symlinks, unicode
 * names, binary and Latin-1 files, a nested repository). git is the oracle for which files exist.
 * ripgrep and git are the real programs; a PATH without them shows the fallbacks.
 */

const rg = findProgram('rg');
const gitPath = findProgram('git')!;

/** A PATH holding git but no rg. */
function gitOnlyPath(): string {
  const dir = tempDir('reika-path-');
  symlinkSync(gitPath, join(dir, 'git'));
  return dir;
}

async function grepVia(root: string, args: { pattern: string; path?: string; glob?: string; ignore_case?: boolean }, options: GrepOptions, signal = new AbortController().signal): Promise<ToolOutcome> {
  return grepWith(args, { root, settings: toolSettings(root), signal, emit: () => {}, spill, groups }, options);
}

/** What must be equal across engines: matches (with the spill file's content) and the summary's counts of matches and files. */
function comparable(outcome: ToolOutcome): { payload: string; spilled?: string; summary: string } {
  const spillPath = outcome.meta?.spillPath;
  const spilled = spillPath ? readFileSync(spillPath, 'utf8') : undefined;
  const summary = outcome.summary
    .replace(/; \d+ binary files? skipped/, '') // the walk reads every binary file, the searchers only those where the bytes occur
    .replace(/no matches in [\d,]+ files?/, 'no matches')
    .replaceAll(spillPath ?? '\0', 'SPILL');
  return { payload: outcome.payload.replaceAll(spillPath ?? '\0', 'SPILL'), spilled, summary };
}

/** Every file's text starts with "needle " and holds its own path, so grep finds each regular file. */
function contentsOf(paths: string[]): Record<string, string> {
  return Object.fromEntries(paths.map((path) => [path, `needle ${path}\n`]));
}

function agreementRepo(): string {
  const root = oracleRepo(contentsOf(['old.log', 'src/a.ts', 'src/important.tmp', 'src/deep/kept.log', 'docs/keep/guide.md', 'docs/drop.md', 'dist/tracked.js']), {}, 'excluded-by-info.txt\n');
  writeTree(root, {
    '.gitignore': '*.log\n!keep.log\ngen/\nbuild-out/\n/top-only.txt\ncache/\n/docs/*\n!/docs/keep/\n',
    'src/.gitignore': '*.tmp\n!important.tmp\n',
    'src/deep/.gitignore': '!*.log\nsecret/\n',
    ...contentsOf([
      'new.log',
      'keep.log',
      'top-only.txt',
      'src/top-only.txt',
      'src/scratch.tmp',
      'src/deep/new.log',
      'src/deep/secret/s.txt',
      'gen/forced.ts',
      'gen/deep/forced.ts',
      'gen/other.ts',
      'build-out/keep/tracked.txt',
      'build-out/junk.txt',
      'excluded-by-info.txt',
      'docs/keep/new.md',
      'docs/new.md',
      'node_modules/pkg/index.js',
      'src/build/out.js',
      '.hidden/dot.txt',
      'ünïcödé/naïve café.txt',
      '日本/ファイル.md',
      'with space/and:colon.txt',
    ]),
    'crlf.txt': 'needle line one\r\nsecond needle\r\n',
    'latin1.txt': Buffer.from('needle caf\xe9 latin\n', 'latin1'),
    'digits.txt': 'needle \u0663\u0664 arabic digits\nneedle 42 ascii\n',
    'binary.bin': Buffer.concat([Buffer.from('needle '), Buffer.from([0, 1, 2]), Buffer.from(' needle\n')]),
    'late-nul.txt': Buffer.concat([Buffer.from('needle early\n'), Buffer.alloc(9000, 0x61), Buffer.from([0]), Buffer.from('\n')]),
    'nested/.gitignore': '*.md\n',
    'nested/inner.txt': 'needle inner\n',
    'nested/inner.md': 'needle inner md\n',
  });
  // A nested repository: the outer rules stop at its top, its own info/exclude applies.
  git(join(root, 'nested'), 'init', '-q');
  writeFileSync(join(root, 'nested', '.git', 'info', 'exclude'), 'inner.txt\n');
  writeTree(root, { 'nested/kept.log': 'needle nested log\n' });
  symlinkSync('src/a.ts', join(root, 'link-to-file'));
  symlinkSync('src', join(root, 'link-to-dir'));
  symlinkSync('.', join(root, 'loop'));
  symlinkSync('missing-target', join(root, 'dangling'));
  symlinkSync('src/a.ts', join(root, 'trace.log'));
  symlinkSync('../src/a.ts', join(root, 'gen', 'tracked-link'));
  git(root, 'add', '-f', 'gen/forced.ts', 'gen/deep/forced.ts', 'build-out/keep/tracked.txt', 'gen/tracked-link');
  git(root, 'commit', '-qm', 'forced');
  return root;
}

const PATTERNS: { pattern: string; path?: string; glob?: string; ignore_case?: boolean }[] = [
  { pattern: 'needle' },
  { pattern: 'NEEDLE', ignore_case: true },
  { pattern: 'needle', glob: '*.ts' },
  { pattern: 'needle', glob: 'src/**' },
  { pattern: 'forced', path: 'gen' },
  { pattern: 'needle', path: 'src' },
  { pattern: 'caf.' }, // Latin-1: one byte ripgrep's `.` does not match unless widened
  { pattern: 'café' },
  { pattern: '\\bcaf\\w' }, // RE2's \b and \w are ASCII, ripgrep's Unicode
  { pattern: 'needle \\D\\D ' }, // RE2's \D matches Arabic digits, ripgrep's Unicode \D does not
  { pattern: 'needle\\s\\d+' },
  { pattern: 'one$' }, // a CRLF line: the JavaScript path strips the CR
  { pattern: '[^\\x00-\\x7f]' },
  { pattern: 'ファイル|naïve' },
  { pattern: '(?i)NeEdLe [a-c]' },
  { pattern: 'x{2,}|needle \\{' },
  { pattern: 'nowhere at all' },
];

test('ripgrep, git grep and the walk give the same matches on a tree of every ignore case', async (t) => {
  const root = agreementRepo();
  const oracle = gitListing(root);
  t.true(oracle.includes('gen/forced.ts') && oracle.includes('old.log') && !oracle.includes('new.log'), 'the tree has what it was made for');
  const engines: [string, GrepOptions][] = [['walk', { engine: 'js' }], ['git grep', { engine: 'git', path: gitOnlyPath() }], ['auto without rg', { path: gitOnlyPath() }], ['no programs at all', { path: '' }]];
  if (rg) engines.push(['ripgrep', { engine: 'rg' }], ['auto', {}]);
  else t.log('rg is not on PATH: only git grep and the walk are compared');
  for (const args of PATTERNS) {
    const reference = comparable(await grepVia(root, args, { engine: 'js' }));
    for (const [name, options] of engines) {
      t.deepEqual(comparable(await grepVia(root, args, options)), reference, `${name}: ${JSON.stringify(args)}`);
    }
  }
  // The walk's result is git's tree: every regular file git lists holds "needle".
  const all = await grepVia(root, { pattern: 'needle' }, { engine: 'js' });
  const grepped = new Set(all.payload.split('\n').map((line) => line.slice(0, line.indexOf(':', line.indexOf('.')))));
  t.true(grepped.has('gen/forced.ts') && grepped.has('日本/ファイル.md') && grepped.has('nested/kept.log') && grepped.has('with space/and:colon.txt'));
  t.false(grepped.has('dist/tracked.js') || grepped.has('new.log') || grepped.has('trace.log') || grepped.has('nested/inner.txt') || grepped.has('binary.bin'));
});

test('the searchers pick files, the walk reads them: each searcher is really used where it can be', async (t) => {
  const root = agreementRepo();
  const query = { root, start: root, pattern: 'needle', ignoreCase: false, signal: new AbortController().signal };
  const viaGit = await findCandidates({ ...query, engine: 'git', path: gitOnlyPath() });
  t.is(viaGit?.engine, 'git');
  t.true(viaGit!.files.includes(join(root, 'gen', 'forced.ts')), 'tracked-but-ignored files are picked');
  t.is(await findCandidates({ ...query, pattern: '\\w+', engine: 'git', path: gitOnlyPath() }), undefined, 'git grep needs a literal; without one the walk searches');
  t.is(await findCandidates({ ...query, path: '' }), undefined, 'no searcher on PATH: the walk');
  if (!rg) return t.pass();
  const viaRg = await findCandidates({ ...query, engine: 'rg' });
  t.is(viaRg?.engine, 'rg');
  t.true(viaRg!.files.includes(join(root, 'gen', 'forced.ts')) && viaRg!.files.includes(join(root, 'old.log')), 'tracked-but-ignored files are added to what ripgrep finds');
  t.true((viaRg!.searched ?? 0) > 10, 'ripgrep says how many files it searched');
  t.is(await findCandidates({ ...query, pattern: '\\0', engine: 'rg' }), undefined, 'a pattern the rewrite does not know goes to the walk');
});

test("t0008's tree and the tricky rule sets: every searcher finds what git lists", async (t) => {
  const user = gitHome();
  const root = tempDir('reika-t0008-');
  git(root, 'init', '-q');
  const globalExcludes = join(user.home, 'global-excludes');
  writeFileSync(globalExcludes, T0008_TREE.globalExcludes);
  git(root, 'config', 'core.excludesfile', globalExcludes);
  const touch = (path: string, text = `needle ${path}\n`) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const [path, text] of Object.entries(T0008_TREE.gitignore)) touch(path, text);
  writeFileSync(join(root, '.git', 'info', 'exclude'), T0008_TREE.infoExclude);
  for (const path of T0008_TREE.trackedIgnored) touch(path);
  git(root, 'add', '-f', ...T0008_TREE.trackedIgnored);
  git(root, 'commit', '-qm', 'tracked');
  for (const path of T0008_TREE.files) touch(path);
  const roots = [root];
  for (const repo of TRICKY_REPOS) {
    const dir = oracleRepo(contentsOf(Object.keys(repo.committed).filter((p) => !p.endsWith('.gitignore'))), contentsOf(Object.keys(repo.untracked ?? {})), repo.exclude);
    writeTree(dir, Object.fromEntries(Object.entries(repo.committed).filter(([p]) => p.endsWith('.gitignore'))));
    roots.push(dir);
  }
  for (const dir of roots) {
    const reference = comparable(await grepVia(dir, { pattern: 'needle' }, { engine: 'js' }));
    const listed = new Set(reference.spilled === undefined ? reference.payload.split('\n').map((line) => line.slice(0, line.indexOf(':'))) : []);
    for (const path of gitListing(dir)) if (readFileSync(join(dir, path), 'utf8').startsWith('needle')) t.true(listed.has(path) || reference.spilled !== undefined, `${path} in ${dir}`);
    t.deepEqual(comparable(await grepVia(dir, { pattern: 'needle' }, { engine: 'git', path: gitOnlyPath() })), reference, `git grep in ${dir}`);
    if (rg) t.deepEqual(comparable(await grepVia(dir, { pattern: 'needle' }, { engine: 'rg' })), reference, `ripgrep in ${dir}`);
  }
});

test('more than 100 matches stream into the spill file in the walk order, whichever searcher picked the files', async (t) => {
  const root = tempDir('reika-many-');
  git(root, 'init', '-q');
  const tree: Record<string, string> = {};
  for (let d = 0; d < 12; d++) for (let f = 0; f < 12; f++) tree[`d${d}/sub/f${f}.txt`] = `hit ${d} ${f}\nmiss\nhit again\n`;
  for (let f = 0; f < 30; f++) tree[`top${f}.txt`] = `hit top ${f}\n`;
  writeTree(root, tree);
  const reference = comparable(await grepVia(root, { pattern: '^hit' }, { engine: 'js' }));
  t.regex(reference.summary, /318 matches in 174 files; first 100 shown, all in SPILL$/);
  t.is(reference.spilled!.split('\n').length, 319);
  t.deepEqual(comparable(await grepVia(root, { pattern: '^hit' }, { engine: 'git', path: gitOnlyPath() })), reference);
  if (rg) t.deepEqual(comparable(await grepVia(root, { pattern: '^hit' }, { engine: 'rg' })), reference);
});

for (const engine of ['rg', 'git'] as const) {
  test(`an abort while ${engine === 'rg' ? 'ripgrep' : 'git grep'} runs kills it: the call ends cancelled and no process is left`, async (t) => {
    if (engine === 'rg' && !rg) return t.pass();
    const root = tempDir('reika-abort-');
    git(root, 'init', '-q');
    for (let d = 0; d < 20; d++) writeTree(root, Object.fromEntries(Array.from({ length: 50 }, (_, f) => [`d${d}/f${f}.txt`, 'needle\n'.repeat(200)])));
    const controller = new AbortController();
    const pids: number[] = [];
    const outcome = await grepVia(root, { pattern: 'needle' }, {
      engine,
      path: engine === 'git' ? gitOnlyPath() : undefined,
      onSpawn: (pid) => {
        pids.push(pid);
        controller.abort();
      },
    }, controller.signal);
    t.is(outcome.status, 'cancelled');
    t.true(pids.length > 0);
    for (const pid of pids) t.false(existsSync(`/proc/${pid}`), `process ${pid} is gone`);
  });
}

test('the rewrite for ripgrep widens what RE2 and ripgrep read differently and refuses what it does not know', (t) => {
  t.is(toRustRegex('foo'), 'foo');
  t.is(toRustRegex('a\\.b'), 'a\\x{2e}b');
  t.is(toRustRegex('\\bx\\B'), '(?-u:\\b)x(?-u:\\B)');
  t.is(toRustRegex('\\d\\w\\s'), '[0-9][0-9A-Za-z_][\\t\\n\\x0C\\r ]');
  t.is(toRustRegex('\\D'), '(?:[^0-9]|(?-u:[\\x80-\\xFF]))');
  t.is(toRustRegex('é'), '(?:\\x{e9}|(?-u:\\xE9))');
  t.is(toRustRegex('[a-c_]'), '[a-c\\x{5f}]');
  t.is(toRustRegex('[^a]'), '(?:[^a]|(?-u:[\\x80-\\xFF]))');
  t.is(toRustRegex('a{2,3}b{'), 'a{2,3}b\\x{7b}');
  t.is(toRustRegex('(?P<name>x)(?i:y)'), '(x)(?i:y)');
  t.is(toRustRegex('[[:alpha:]\\d]'), '[[[:alpha:]]0-9]');
  for (const unknown of ['\\Qa.b\\E', '\\C', '\\1', '\\0', '(?x)a']) t.is(toRustRegex(unknown), undefined, unknown);
});

test('grep works with neither rg nor git on PATH', async (t) => {
  const root = tempDir('reika-plain-');
  writeTree(root, { '.gitignore': 'skip/\n', 'a.txt': 'needle\n', 'skip/b.txt': 'needle\n' });
  copyFileSync(join(root, 'a.txt'), join(root, 'c.txt'));
  const outcome = await grepVia(root, { pattern: 'needle' }, { path: '' });
  t.is(outcome.payload, 'a.txt:1: needle\nc.txt:1: needle');
  if (rg) t.deepEqual(comparable(await grepVia(root, { pattern: 'needle' }, {})), comparable(outcome), 'ripgrep outside git honours .gitignore as the walk does');
});
