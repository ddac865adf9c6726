import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve, sep } from 'node:path';

/**
 * Where a mentioned path is on disk. A name typed (or completed) in one Unicode normalisation may
 * be stored in the other: macOS keyboards type `é` composed (NFC) while files copied from macOS
 * or unpacked from some archives carry it decomposed (NFD), and Linux file systems compare bytes.
 * When the path as written does not exist, each missing segment is looked up among its folder's
 * entries by its NFC form. Returns the path as written when nothing matches (its stat then says
 * why).
 */
export async function findMentionedFile(path: string, root: string): Promise<string> {
  const full = isAbsolute(path) ? path : resolve(root, path);
  if (await exists(full)) return full;
  const parts = full.split(sep);
  let found = parts[0] === '' ? sep : parts[0]!;
  for (const part of parts.slice(1)) {
    if (part === '') continue;
    const exact = join(found, part);
    if (await exists(exact)) {
      found = exact;
      continue;
    }
    const wanted = part.normalize('NFC');
    let entries: string[];
    try {
      entries = await readdir(found);
    } catch {
      return full;
    }
    const match = entries.find((entry) => entry.normalize('NFC') === wanted);
    if (match === undefined) return full;
    found = join(found, match);
  }
  return found;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
