import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

/**
 * Test fixture: `node stdin-tap.js LOG COMMAND ARGS…` runs the command with its stdin, stdout and
 * stderr passed through, and appends every line sent to its stdin to LOG — what the server was
 * told (e.g. `notifications/cancelled`), as the server saw it.
 */
const [log, command, ...args] = process.argv.slice(2);
const child = spawn(command!, args, { stdio: ['pipe', 'inherit', 'inherit'] });
let pending = '';
process.stdin.on('data', (chunk: Buffer) => {
  // Logged before it is passed on: once the server answered a later request, the log has this.
  pending += chunk.toString('utf8');
  const lines = pending.split('\n');
  pending = lines.pop()!;
  for (const line of lines) appendFileSync(log!, `${line}\n`);
  child.stdin!.write(chunk);
});
process.stdin.on('end', () => child.stdin!.end());
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
process.on('SIGTERM', () => child.kill('SIGTERM'));
