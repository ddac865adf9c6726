import { execFile } from 'node:child_process';
import { chmod, lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * An existing checkpoint store made private on first use (SPEC §16): stores made before reika
 * kept them so hold `.env` copies under 0755 folders and 0444 objects. When the store's folder
 * lets anyone else in, every folder in it becomes 0700 and every file loses its group and other
 * bits, and git is told to keep it so (`core.sharedRepository=0600`). A private store costs one stat.
 */
export async function makePrivate(dir: string, gitDir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info || (info.mode & 0o077) === 0) return;
  await new Promise<void>((done) => execFile('git', ['--git-dir', gitDir, 'config', 'core.sharedRepository', '0600'], () => done()));
  await closeUp(dir);
}

async function closeUp(path: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (!info || info.isSymbolicLink()) return;
  if (info.isDirectory()) {
    for (const name of await readdir(path).catch(() => [] as string[])) await closeUp(join(path, name));
    // Last, so a folder is closed only once all inside it is.
    await chmod(path, 0o700).catch(() => {});
  } else if ((info.mode & 0o077) !== 0) {
    await chmod(path, info.mode & 0o700).catch(() => {});
  }
}
