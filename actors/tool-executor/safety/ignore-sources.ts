import { lstat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { storeGit, type StorePaths } from './store-git.js';

// The ignore rules a store's git reads from outside the project — the user's git config (which
// names core.excludesFile) and the global ignore file — as one stamp of their sizes and times.
// The watcher sees `.gitignore` files in the tree; a change here it cannot see, so a snapshot that
// finds a new stamp walks the whole tree and the watches are built again.

const excludesFiles = new Map<string, { configs: string; file: string }>();

export async function ignoreSourcesStamp(paths: StorePaths): Promise<string> {
  const home = homedir();
  const xdg = process.env.XDG_CONFIG_HOME || join(home, '.config');
  const configs = (await Promise.all([join(home, '.gitconfig'), join(xdg, 'git', 'config')].map(stampOf))).join(' ');
  let known = excludesFiles.get(paths.gitDir);
  if (known?.configs !== configs) {
    const file = (await storeGit(paths, ['config', '--path', '--get', 'core.excludesFile'], { okExit: [1] }).catch(() => '')).trim();
    known = { configs, file };
    excludesFiles.set(paths.gitDir, known);
  }
  const ignores = await Promise.all([join(xdg, 'git', 'ignore'), known.file].filter(Boolean).map(stampOf));
  return `${configs} ${ignores.join(' ')}`;
}

async function stampOf(path: string): Promise<string> {
  const info = await lstat(path).catch(() => undefined);
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : '-';
}
