import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { encodeFrame, FrameDecoder } from './codec.js';
import type { Envelope } from './envelope.js';
import type { ActorSpec, ExitInfo, Transport } from './transport.js';

const entry = new URL('./process-entry.js', import.meta.url);
const STDERR_TAIL = 4096;
const KILL_GRACE_MS = 1000;

/**
 * An actor in a child process. Envelopes travel as length-prefixed msgpackr frames over fd 3 (a
 * socket pair), so the child's stdout and stderr stay free for logs.
 */
export class ProcessTransport implements Transport {
  readonly kind = 'process' as const;
  private readonly child: ChildProcess;
  private readonly channel: Writable & Readable;
  private exitListener: ((info: ExitInfo) => void) | undefined;
  private stderrTail = '';
  private exited = false;
  /** Whether the child has sent anything yet: until it has, it holds no work (it is still booting). */
  private spoke = false;
  private readonly exitPromise: Promise<void>;

  constructor(spec: ActorSpec, onLog?: (line: string) => void) {
    const payload = JSON.stringify({ module: String(spec.module), name: spec.name, options: spec.options ?? null });
    this.child = spawn(process.execPath, [entry.pathname, payload], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: spec.env ? { ...process.env, ...spec.env } : process.env,
      cwd: spec.cwd,
    });
    if (spec.nice !== undefined && this.child.pid !== undefined) {
      try {
        // Set before the child's threads exist (they inherit it from its main thread), as a rule.
        setPriority(this.child.pid, spec.nice);
      } catch {
        // Not permitted here, or the process is gone already: it runs at the normal priority.
      }
    }
    this.channel = this.child.stdio[3] as Writable & Readable;
    // A write racing the child's death must not become an uncaught error in the supervisor.
    this.channel.on('error', () => {});
    const keepTail = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
      onLog?.(text);
    };
    this.child.stdout?.on('data', keepTail);
    this.child.stderr?.on('data', keepTail);
    this.exitPromise = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exited = true;
        resolve();
        // What the actor wrote just before it exited (its last reply) may still wait in the socket
        // when the exit is seen first, as on a loaded machine: its caller then got "exited with
        // code 1" instead of the reply. The loop reads ready sockets before it runs the next
        // immediate, so the exit is told after them.
        setImmediate(() => this.exitListener?.({ code, signal, detail: this.stderrTail.trim() || undefined }));
      });
      this.child.once('error', (error) => {
        // Spawn failed: there will be no 'exit'.
        if (this.child.pid === undefined && !this.exited) {
          this.exited = true;
          resolve();
          this.exitListener?.({ code: null, signal: null, detail: error.message });
        }
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  send(message: Envelope): void {
    if (!this.exited && this.channel.writable) this.channel.write(encodeFrame(message));
  }

  onMessage(listener: (message: Envelope) => void): void {
    const decoder = new FrameDecoder(listener);
    this.channel.on('data', (chunk: Buffer) => {
      this.spoke = true;
      decoder.push(chunk);
    });
  }

  onExit(listener: (info: ExitInfo) => void): void {
    this.exitListener = listener;
  }

  /**
   * Asks the actor to shut down, then kills it if it has not gone after a grace period. A child
   * that has not said a word yet (still loading Node and its modules) has nothing to wind down: it
   * is killed at once rather than waited for to boot only to be told to go (an interrupt during
   * startup would wait for that boot, ~0.3–0.5 s under load).
   */
  async terminate(force = false): Promise<void> {
    if (this.exited) return;
    if (force || !this.spoke) this.child.kill('SIGKILL');
    else this.send({ type: 'shutdown' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), KILL_GRACE_MS);
    await this.exitPromise;
    clearTimeout(timer);
  }
}
