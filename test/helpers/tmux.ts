import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp.js';
import { atTestEnd, killTree } from './watchdog.js';

/**
 * Drives a real program in a real terminal: a tmux session of fixed size on a private tmux server
 * (its own socket and an empty config, so a user's tmux is never touched), keys sent with
 * `send-keys`, the screen read with `capture-pane`. Tests skip with a logged reason when tmux is
 * missing (see {@link tmuxMissing}).
 *
 * ```ts
 * const term = await Tmux.start({ command: ['node', mainJs], cwd, env, width: 80, height: 24 });
 * t.teardown(() => term.kill());
 * await term.waitFor('› ');
 * term.type('hello'); term.keys('Enter');
 * await term.waitFor(/answer/);
 * ```
 */

/** Why tmux tests cannot run here, or undefined when they can. */
export function tmuxMissing(): string | undefined {
  const probe = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return `tmux is not installed (${probe.error?.message ?? probe.stderr.trim()})`;
  return undefined;
}

export interface TmuxOptions {
  command: string[];
  cwd: string;
  /** The program's whole environment (PATH and HOME should be in it). */
  env: Record<string, string | undefined>;
  width?: number;
  height?: number;
}

let counter = 0;

export class Tmux {
  /** Unregisters the end-of-process cleanup once {@link kill} ran. */
  private forget: () => void = () => {};

  private constructor(
    private readonly socket: string,
    readonly name: string,
  ) {}

  static async start(options: TmuxOptions): Promise<Tmux> {
    const dir = tempDir('reika-tmux-');
    const conf = join(dir, 'tmux.conf');
    // remain-on-exit keeps the pane after the program ends, so its exit status can be read.
    writeFileSync(conf, 'set -g remain-on-exit on\nset -g history-limit 5000\nset -sg escape-time 0\nset -g status off\n');
    const socket = join(dir, 'sock');
    const name = `reika-${process.pid}-${++counter}`;
    const env = Object.entries(options.env)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${shellQuote(v!)}`);
    const command = ['exec', 'env', '-i', ...env, ...options.command.map(shellQuote)].join(' ');
    execFileSync('tmux', ['-S', socket, '-f', conf, 'new-session', '-d', '-s', name, '-x', String(options.width ?? 80), '-y', String(options.height ?? 24), '-c', options.cwd, command]);
    const term = new Tmux(socket, name);
    // The tmux server is a daemon: if the test process ends before the test's teardown (ava's
    // timeout ends a worker with SIGTERM, and teardowns do not run), it and the program would stay.
    term.forget = atTestEnd((why) => {
      process.stderr.write(`\ntmux: ${why} with the session ${name} still open: killed it\n`);
      term.kill();
    });
    return term;
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], { encoding: 'utf8' });
  }

  /** Types text literally (no key names). */
  type(text: string): void {
    this.tmux('send-keys', '-t', this.name, '-l', text);
  }

  /**
   * Pastes text as a terminal does: bracketed (`ESC[200~ … ESC[201~`) when the program asked for
   * bracketed paste, line breaks kept as LF.
   */
  paste(text: string): void {
    const file = join(tempDir('reika-paste-'), 'paste.txt');
    writeFileSync(file, text);
    const buffer = `paste-${this.name}`;
    this.tmux('load-buffer', '-b', buffer, file);
    this.tmux('paste-buffer', '-p', '-r', '-d', '-b', buffer, '-t', this.name);
  }

  /** Sends named keys: `Enter`, `Escape`, `C-a`, `BTab`, `Up`, `M-Enter`… */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', this.name, ...keys);
  }

  /** The visible screen plus `scrollback` lines above it, trailing blanks trimmed. */
  capture(scrollback = 200): string {
    return this.tmux('capture-pane', '-p', '-t', this.name, '-S', String(-scrollback))
      .split('\n')
      .map((line) => line.replace(/\s+$/, ''))
      .join('\n')
      .replace(/\n+$/, '');
  }

  /**
   * The visible screen with its colour and attribute escapes (`capture-pane -e`), plus
   * `scrollback` lines above it: what {@link waitFor} saw may have scrolled off the screen since.
   */
  captureEscapes(scrollback = 0): string {
    return this.tmux('capture-pane', '-p', '-e', '-t', this.name, ...(scrollback > 0 ? ['-S', String(-scrollback)] : []));
  }

  /** Only the visible screen. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', this.name).replace(/\s+$/, '');
  }

  /**
   * Polls the screen (and 200 lines of scrollback) until it shows `text` (or `test` returns true);
   * fails with the screen after `timeoutMs`. The limit only decides when to give up on a screen
   * that will never come: generous, since a loaded machine (load 20 on 2 cores) can take many
   * seconds to start reika or to load a module on first use.
   */
  async waitFor(text: string | RegExp | ((screen: string) => boolean), timeoutMs = 45_000): Promise<string> {
    const matches = typeof text === 'function' ? text : (screen: string) => (typeof text === 'string' ? screen.includes(text) : text.test(screen));
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = this.capture();
      if (matches(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    throw new Error(`the terminal never showed ${String(text)} within ${timeoutMs} ms; it shows:\n${screen}`);
  }

  /** The program's exit status once it has ended, else undefined. */
  exitStatus(): number | undefined {
    const [dead, status, signal] = this.tmux('list-panes', '-t', this.name, '-F', '#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}').trim().split('|');
    if (dead !== '1') return undefined;
    // tmux marks the pane dead a moment before it has the status; a signal death reads 128 + n.
    if (status) return Number(status);
    if (signal) return 128 + Number(signal);
    return zombieStatus(this.pid());
  }

  /** Changes the terminal's size (the program gets SIGWINCH). */
  resize(width: number, height: number): void {
    this.tmux('resize-window', '-t', this.name, '-x', String(width), '-y', String(height));
  }

  /** Process id of the program in the pane. */
  pid(): number {
    return Number(this.tmux('list-panes', '-t', this.name, '-F', '#{pane_pid}').trim());
  }

  async waitForExit(timeoutMs = 30_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const status = this.exitStatus();
      if (status !== undefined) return status;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    throw new Error(`the program did not exit within ${timeoutMs} ms; the terminal shows:\n${this.capture()}`);
  }

  /**
   * Ends the program in the pane with all it started (SIGKILL: a program stuck in its SIGHUP
   * handling would outlive the server), then the tmux server of this session.
   */
  kill(): void {
    this.forget();
    let pid: number | undefined;
    try {
      const status = this.tmux('list-panes', '-t', this.name, '-F', '#{pane_dead}|#{pane_pid}').trim().split('|');
      if (status[0] !== '1') pid = Number(status[1]);
    } catch {
      // the server is gone already
    }
    if (pid) killTree(pid);
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}

/**
 * The exit status of a process that has ended but was not reaped yet (tmux 3.3 sometimes sees the
 * pane's pty close and never collects the status): Linux keeps it in field 52 of /proc/PID/stat.
 */
function zombieStatus(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] !== 'Z') return undefined;
    const raw = Number(fields[49]);
    return (raw & 0x7f) !== 0 ? 128 + (raw & 0x7f) : raw >> 8;
  } catch {
    return undefined;
  }
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
