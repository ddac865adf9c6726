import { execFileSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './temp.js';

/**
 * A `git` that stops where a test says, so steps of two processes can be played in a chosen order
 * without timers. Put {@link GitGates.bin} first on PATH (in this process, or a child's env): every
 * call runs the real git, except the first call (of any process) naming a gated subcommand after it
 * is armed. That call stops before it runs (`after`: once it has run, its output written and its
 * exit code kept) and connects to this test's server; it goes on when the test says `go`.
 */

export interface Gate {
  go(): void;
}

export interface GitGates {
  /** The folder holding the gated `git`. */
  bin: string;
  /** The next call naming `subcommand` stops (before it runs, or after). */
  arm(subcommand: string, when?: 'before' | 'after'): void;
  /** Resolves once a call stopped at `subcommand`'s gate. */
  reached(subcommand: string): Promise<Gate>;
  close(): void;
}

export async function gitGates(): Promise<GitGates> {
  const bin = tempDir('reika-git-gates-');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const stopped = new Map<string, { promise: Promise<Gate>; resolve: (gate: Gate) => void }>();
  const slot = (name: string) => {
    let entry = stopped.get(name);
    if (!entry) {
      let resolve!: (gate: Gate) => void;
      const promise = new Promise<Gate>((done) => (resolve = done));
      entry = { promise, resolve };
      stopped.set(name, entry);
    }
    return entry;
  };
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (!text.includes('\n')) return;
      slot(text.trim()).resolve({ go: () => socket.end('go\n') });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  // Claiming a gate is deleting its armed file: one process wins it.
  writeFileSync(
    join(bin, 'git'),
    `#!/bin/bash
G='${bin}'
stop() { exec 3<>/dev/tcp/127.0.0.1/${port}; echo "$1" >&3; read -r _ <&3; exec 3>&-; }
for a in "$@"; do
  if [ -e "$G/armed-$a" ] && rm "$G/armed-$a" 2>/dev/null; then
    if [ -e "$G/after-$a" ]; then '${realGit}' "$@"; rc=$?; stop "$a"; exit $rc; fi
    stop "$a"; exec '${realGit}' "$@"
  fi
done
exec '${realGit}' "$@"
`,
  );
  chmodSync(join(bin, 'git'), 0o755);
  return {
    bin,
    arm(subcommand, when = 'before') {
      if (when === 'after') writeFileSync(join(bin, `after-${subcommand}`), '');
      else rmSync(join(bin, `after-${subcommand}`), { force: true });
      writeFileSync(join(bin, `armed-${subcommand}`), '');
    },
    reached: (subcommand) => slot(subcommand).promise,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
