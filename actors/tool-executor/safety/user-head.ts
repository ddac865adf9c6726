import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { UserRepository } from './store-seed.js';

// Where the user's HEAD is, read from the repository's files (no git process, nothing written):
// kept with each checkpoint so an undo can say when a step moved the user's history. Checkpoints
// restore files only; commits, branches and the index are git's, and an undo never touches them.

export interface UserHead {
  /** The branch HEAD is on (short name, `main`), undefined when detached. */
  branch?: string;
  /** The commit HEAD names, undefined on a branch with no commit yet. */
  commit?: string;
}

const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** The user's HEAD, or undefined where it cannot be read plainly (e.g. a reftable repository). */
export async function userHead(repository: UserRepository): Promise<UserHead | undefined> {
  const head = await readText(join(repository.gitDir, 'HEAD'));
  if (head === undefined) return undefined;
  if (OID.test(head)) return { commit: head };
  if (!head.startsWith('ref: refs/heads/')) return undefined;
  const ref = head.slice('ref: '.length);
  const branch = ref.slice('refs/heads/'.length);
  // reftable keeps a placeholder branch in HEAD; its refs are not files.
  if (branch === '.invalid') return undefined;
  const commit = await resolveRef(repository, ref);
  return commit ? { branch, commit } : { branch };
}

/** Two heads name the same place. */
export function sameHead(a: UserHead | undefined, b: UserHead | undefined): boolean {
  return a?.branch === b?.branch && a?.commit === b?.commit;
}

/** A branch's commit: its loose ref file, else its line in packed-refs. */
async function resolveRef(repository: UserRepository, ref: string): Promise<string | undefined> {
  const loose = await readText(join(repository.commonDir, ref));
  if (loose !== undefined) return OID.test(loose) ? loose : undefined;
  const packed = await readText(join(repository.commonDir, 'packed-refs'));
  for (const line of packed?.split('\n') ?? []) {
    const [oid, name] = line.split(' ');
    if (name === ref && oid && OID.test(oid)) return oid;
  }
  return undefined;
}

async function readText(path: string): Promise<string | undefined> {
  return (await readFile(path, 'utf8').catch(() => undefined))?.trim();
}
