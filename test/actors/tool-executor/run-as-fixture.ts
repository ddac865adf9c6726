import { call } from './harness.js';

/**
 * Runs one tool call in a separate process, optionally as another user (root can read anything,
 * so "unreadable file" tests drop to `nobody` here). argv[2]: JSON {root, name, args, uid?}.
 */
const { root, name, args, uid } = JSON.parse(process.argv[2]!) as { root: string; name: string; args: Record<string, unknown>; uid?: number };
if (uid !== undefined) process.setuid!(uid);
const result = await call(root, name, args);
process.stdout.write(JSON.stringify(result));
