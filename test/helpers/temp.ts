import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Shared test helpers: real folders and real git repositories in the system temp dir. */

const made: string[] = [];
process.on('exit', () => {
  if (process.env.REIKA_KEEP_TEMP) return;
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

// Checkpoints (SPEC §12) of this test process and the reika processes it starts go to a state
// folder of its own, never the user's.
const stateHome = realpathSync(mkdtempSync(join(tmpdir(), 'reika-state-')));
made.push(stateHome);
process.env.XDG_STATE_HOME = stateHome;
// Language servers check edits only in the tests about them (test/actors/lsp, the headless
// diagnostics test): elsewhere an edit of a .ts file would start one and wait for it.
process.env.REIKA_DIAGNOSTICS ??= 'off';

/** A fresh empty folder (realpath'd, so comparisons with resolved paths hold). */
export function tempDir(prefix = 'reika-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** A tree of files: keys are `/`-separated relative paths, values their contents. */
export type Tree = Record<string, string | Buffer>;

export function writeTree(root: string, tree: Tree): string {
  for (const [path, content] of Object.entries(tree)) {
    const full = join(root, ...path.split('/'));
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return root;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  });
}

/** A git repository with the tree written and, unless `commit` is false, committed. */
export function gitRepo(tree: Tree = {}, options: { commit?: boolean } = {}): string {
  const root = tempDir('reika-repo-');
  git(root, 'init', '-q', '-b', 'main');
  writeTree(root, tree);
  if (options.commit !== false && Object.keys(tree).length > 0) {
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'initial');
  }
  return root;
}
