import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from './harness.js';

/**
 * Runs one tool call in a separate process, optionally as another user (root can read anything,
 * so "unreadable file" tests drop to `nobody` here). argv[2]: JSON {root, name, args, uid?}.
 * Prints the result and the uid it ran as.
 *
 * The checkout may sit in a folder only root can read (a clone in `mktemp -d`, or under /root):
 * the tool's modules, which it loads lazily on its first call, are loaded as root first, by the
 * same call in an empty folder, and only then does the process drop to `uid`.
 */
const { root, name, args, uid } = JSON.parse(process.argv[2]!) as { root: string; name: string; args: Record<string, unknown>; uid?: number };
if (uid !== undefined) {
  await call(mkdtempSync(join(tmpdir(), 'reika-warm-')), name, args);
  process.setgroups!([uid]);
  process.setgid!(uid);
  process.setuid!(uid);
}
const result = await call(root, name, args);
process.stdout.write(JSON.stringify({ ...result, uid: process.getuid!() }));
