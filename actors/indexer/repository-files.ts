import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { globalExcludesFile } from './crawl/ignore-global.js';
import { findGitDir } from './crawl/ignore-files.js';

/**
 * Git's and the user's files that decide what is ignored and tracked, absolute; missing ones count
 * too. The bootstrap cache stamps them (`saveBootstrap`, in the indexer thread); they live apart from
 * `bootstrap-cache.ts`, so the main thread's lookup loads none of the crawl's code (nor `ignore`).
 */
export function repositoryFiles(root: string): string[] {
  const git = findGitDir(root);
  const home = process.env.HOME ?? homedir();
  const files = [join(home, '.gitconfig'), join(process.env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config')];
  if (!git) return files;
  files.push(join(git.gitDir, 'index'), join(git.gitDir, 'HEAD'), join(git.commonDir, 'info', 'exclude'), join(git.commonDir, 'config'), globalExcludesFile(git.commonDir));
  // A root below the repository's top: the `.gitignore` files of the folders above it apply too.
  for (let dir = dirname(root); git.top !== root && (dir === git.top || dir.startsWith(`${git.top}${sep}`)); dir = dirname(dir)) {
    files.push(join(dir, '.gitignore'));
    if (dir === git.top) break;
  }
  return files;
}
