import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALWAYS_SKIPPED } from '../../actors/indexer/crawl/ignore-rules.js';
import { tempDir, writeTree, type Tree } from './temp.js';

/**
 * The oracle for ignore tests: git itself, run with an empty home so no global ignore file or
 * config of the machine changes its answer.
 */
/** An empty home folder for git (and for IgnoreRules: pass `{ home, xdgConfigHome }`). */
export function gitHome(): { home: string; xdgConfigHome: string } {
  const home = tempDir('reika-git-home-');
  mkdirSync(join(home, '.config'), { recursive: true });
  return { home, xdgConfigHome: join(home, '.config') };
}

function envFor(user: { home: string; xdgConfigHome: string }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: user.home,
    XDG_CONFIG_HOME: user.xdgConfigHome,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  };
  delete env.GIT_CONFIG_GLOBAL;
  return env;
}

/** The environment the oracle runs git with: an empty home, no global or system config. */
export const gitEnv = envFor(gitHome());

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'core.quotePath=false', ...args], { cwd, encoding: 'utf8', env: gitEnv, maxBuffer: 256 * 1024 * 1024 });
}

/**
 * A git repo: `committed` is written and committed (git add respects the rules, so nothing ignored
 * is tracked), then `untracked` is written on top; `exclude` becomes `.git/info/exclude`.
 */
export function oracleRepo(committed: Tree, untracked: Tree = {}, exclude?: string): string {
  const root = tempDir('reika-oracle-');
  git(root, 'init', '-q', '-b', 'main');
  if (exclude !== undefined) writeFileSync(join(root, '.git', 'info', 'exclude'), exclude);
  writeTree(root, committed);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'initial', '--allow-empty');
  writeTree(root, untracked);
  return root;
}

const skipped = new Set(ALWAYS_SKIPPED);

/**
 * `git ls-files --cached --others --exclude-standard` in `dir`, minus the always-skipped folders,
 * and what git said on stderr (kept off the test output: a symlinked `.gitignore` makes git warn
 * that it cannot access it, which is the behaviour under test, not noise to print);
 * `user` gives git another home (for the per-user ignore file).
 */
export function gitLsFiles(dir: string, user?: { home: string; xdgConfigHome: string }): { paths: string[]; warnings: string } {
  const result = spawnSync('git', ['-c', 'core.quotePath=false', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: dir,
    env: user ? envFor(user) : gitEnv,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`git ls-files failed in ${dir}: ${result.stderr?.toString('utf8') ?? result.error?.message}`);
  const paths = result.stdout
    .toString('utf8')
    .split('\0')
    .filter((path) => path !== '')
    .filter((path) => !path.split('/').slice(0, -1).some((part) => skipped.has(part)))
    .sort();
  return { paths, warnings: result.stderr.toString('utf8') };
}

/** The paths of {@link gitLsFiles}. */
export function gitListing(dir: string, user?: { home: string; xdgConfigHome: string }): string[] {
  return gitLsFiles(dir, user).paths;
}

/** Every file and symlink under root (no rules at all), `/`-separated, `.git` left out. */
export function everyFile(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(rel === '' ? root : join(root, rel), { withFileTypes: true })) {
    const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.name === '.git') continue;
    if (entry.isDirectory()) out.push(...everyFile(root, path));
    else out.push(path);
  }
  return out;
}

/** Tricky rule sets, each one repository: the acceptance cases of the ignore rules. */
export const TRICKY_REPOS: { title: string; committed: Tree; untracked?: Tree; exclude?: string }[] = [
  {
    title: 'nested negations',
    committed: {
      '.gitignore': '*.log\n!keep.log\nx/y/\nx/z/\n',
      'a.log': '',
      'keep.log': '',
      'sub/.gitignore': '!*.log\n',
      'sub/b.log': '',
      'sub/deeper/.gitignore': 'debug.log\n',
      'sub/deeper/debug.log': '',
      'sub/deeper/other.log': '',
      'x/.gitignore': '!y/\n',
      'x/y/f.txt': '',
      'x/z/f.txt': '',
      'src/main.ts': '',
    },
    untracked: { 'new.log': '', 'sub/new.log': '', 'x/y/g.txt': '' },
  },
  {
    title: 'anchored patterns and double stars',
    committed: {
      '.gitignore': [
        '/root-only.txt',
        'docs/*.md',
        'a/**/z',
        '**/tmp',
        'foo/**',
        '**/cache/**',
        'foo**/bar',
        'lib/**b',
        '**/gen/*.ts',
        'vendor/**',
        '',
      ].join('\n'),
      'root-only.txt': '',
      'nested/root-only.txt': '',
      'docs/a.md': '',
      'docs/deep/b.md': '',
      'other/docs/c.md': '',
      'a/z': '',
      'a/b/z': '',
      'a/b/c/z': '',
      'a/zz': '',
      'tmp/x.txt': '',
      'p/q/tmp': '',
      'foo/one.txt': '',
      'p/cache/x.txt': '',
      'cache': '',
      'fooz/bar': '',
      'foo2/bar': '',
      'fooy/baz': '',
      'lib/ab': '',
      'lib/x/ab': '',
      'lib/b': '',
      'src/gen/a.ts': '',
      'src/gen/a.js': '',
      'gen/b.ts': '',
      'vendor/x/y.c': '',
    },
  },
  {
    title: 'directory-only patterns and c/* versus c/',
    committed: {
      '.gitignore': 'logs/\nc/*\n!c/keep\nd/\n!d/keep\nbuild-out/\n!build-out/keep.txt\nfile-or-dir/\n',
      'logs/a.txt': '',
      'x/logs/b.txt': '',
      'logs-file': '',
      'c/drop': '',
      'c/keep': '',
      'd/drop': '',
      'd/keep': '',
      'build-out/keep.txt': '',
      'file-or-dir': '',
      'q/file-or-dir/inner': '',
      'wl/.gitignore': '*\n!*/\n!*.c\n',
      'wl/a.c': '',
      'wl/a.h': '',
      'wl/deep/b.c': '',
      'wl/deep/b.o': '',
    },
  },
  {
    title: 'escapes, trailing spaces, brackets and case',
    committed: {
      '.gitignore': [
        '\\#hash',
        '\\!bang',
        'spaced.txt   ',
        'trail\\ ',
        'name\\[1\\]',
        '[Tt]emp*',
        'file[!0-9].txt',
        '?.q',
        'README.MD',
        'star\\*',
        '# a comment',
        'crlf.txt\r',
        '',
      ].join('\n'),
      '#hash': '',
      '!bang': '',
      'spaced.txt': '',
      'trail ': '',
      'trail': '',
      'name[1]': '',
      'name1': '',
      'Temp1': '',
      'temp2': '',
      'xtemp': '',
      'filea.txt': '',
      'file1.txt': '',
      'a.q': '',
      'ab.q': '',
      'README.md': '',
      'star*': '',
      'starx': '',
      'crlf.txt': '',
      '# a comment': '',
    },
  },
  {
    title: "git's reading of ** right after a literal prefix (ignore issue #155)",
    committed: {
      '.gitignore': 'foo**/bar\na**/a\nd/a**b\n!keep**/x/y\nkeep/\n!keep/\n',
      'foobar': '',
      'foo/bar': '',
      'fooz/x/bar': '',
      'foo/x/bar': '',
      'foox/bar': '',
      'fo/bar': '',
      'aa': '',
      'ab/c/a': '',
      'ab/c/b': '',
      'd/ab': '',
      'd/a/x/b': '',
      'keep/x/y': '',
    },
  },
  {
    title: 'info/exclude, unicode and space names',
    exclude: 'excluded-by-info.txt\nsecret/\n*.bak\n',
    committed: {
      '.gitignore': 'ü*.tmp\n!keep.bak\n',
      'excluded-by-info.txt': '',
      'secret/a.txt': '',
      'x.bak': '',
      'keep.bak': '',
      'ünïcödé/ファイル.txt': '',
      'ünïcödé/über.tmp': '',
      'über.tmp': '',
      'with space/a b.txt': '',
      'with space/.gitignore': 'a b.txt\n',
      'with space/c d.txt': '',
      'emoji/🙂.md': '',
      'node_modules/pkg/index.js': '',
      'dist/out.js': '',
      'pkg/build/x.js': '',
      'pkg/out': '',
    },
    untracked: { 'more/ünï.txt': '', 'secret/b.txt': '' },
  },
];
