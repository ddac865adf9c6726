import { randomBytes } from 'node:crypto';
import { chmod, chown, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces a file's content all at once: the new bytes go to a temporary file beside it, which
 * then takes its name, so a crash at any moment leaves the old content or the new one, never a
 * half-written file. The real path is replaced (a symlink stays a symlink); mode and owner are
 * kept. A file with other hard links, or in a folder reika may not write, is written in place.
 */
export async function replaceFile(path: string, data: string | Uint8Array): Promise<void> {
  const real = await realpath(path);
  const info = await stat(real);
  if (info.nlink > 1) return writeFile(real, data);
  const temporary = join(dirname(real), `.${basename(real)}.reika-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(temporary, data, { flag: 'wx', mode: info.mode & 0o7777 });
    await chmod(temporary, info.mode & 0o7777);
    if (info.uid !== process.getuid?.() || info.gid !== process.getgid?.()) await chown(temporary, info.uid, info.gid).catch(() => {});
    await rename(temporary, real);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw error;
    await writeFile(real, data);
  }
}
