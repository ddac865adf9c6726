import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StdioServerConfig } from './config.js';

const STDERR_TAIL = 2048;
const TERM_GRACE_MS = 500;

/**
 * The SDK's stdio client transport, but the server runs in a process group of its own, so that
 * closing kills everything it started (a server launched through `npx` or a shell is several
 * processes), and reika's own Ctrl-C does not reach it. Framing and parsing are the SDK's
 * (`ReadBuffer`, `serializeMessage`); the environment is the SDK's safe default plus the config's.
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();
  private tail = '';
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private closing = false;

  constructor(private readonly server: StdioServerConfig) {}

  /** The last lines the server wrote to stderr (for a one-line reason when it fails). */
  get stderrTail(): string {
    return this.tail;
  }

  /** How the server ended, once it has. */
  get exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exit;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.server.command, this.server.args, {
        cwd: this.server.cwd,
        env: { ...getDefaultEnvironment(), ...this.server.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      this.child = child;
      child.once('error', (error) => {
        if (child.pid === undefined) reject(spawnError(this.server.command, error));
        else this.onerror?.(error);
      });
      // Its session is a scheduling group of its own under Linux autogroups, at nice 0 whatever
      // its processes' nice: left so on purpose. A niced group starves on a busy machine (CI at
      // load ~10 took an MCP server past its 10 s start), and the first request needs its tools.
      child.once('spawn', () => resolve());
      child.once('close', (code, signal) => {
        // A command that never started is the spawn error above, not an exit.
        if (child.pid === undefined) return;
        this.exit = { code, signal };
        this.onclose?.();
      });
      child.stdin!.on('error', (error) => this.onerror?.(error));
      child.stdout!.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          for (let message = this.buffer.readMessage(); message !== null; message = this.buffer.readMessage()) this.onmessage?.(message);
        } catch (error) {
          this.onerror?.(error as Error);
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        this.tail = (this.tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      process.once('exit', () => this.killGroup('SIGKILL'));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.exit) return reject(new Error('the server is not running'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server's stdin, then its whole group: SIGTERM, and SIGKILL after a grace period. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closing) return;
    this.closing = true;
    child.stdin?.end();
    if (!this.exit) {
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
      this.killGroup('SIGTERM');
      const timer = setTimeout(() => this.killGroup('SIGKILL'), TERM_GRACE_MS);
      await closed;
      clearTimeout(timer);
    }
    // Whatever the server left behind in its group goes too.
    this.killGroup('SIGKILL');
    this.buffer.clear();
  }

  private killGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // the group is gone
    }
  }
}

function spawnError(command: string, error: NodeJS.ErrnoException): Error {
  if (error.code === 'ENOENT') return new Error(`the command "${command}" was not found (check "command" and PATH)`);
  if (error.code === 'EACCES') return new Error(`the command "${command}" is not executable`);
  return new Error(`the command "${command}" could not start: ${error.message}`);
}
