import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBigTree } from './fixtures/big-tree.js';
import { fmt, row, summarize } from './stats.js';

// The interactive terminal's responsiveness, measured through a real pseudo-terminal (util-linux
// `script` relays our pipe to a pty of 80×24):
//
// - spawn → prompt drawn (raw mode is on before the first frame) and spawn → first key echoed,
//   in a tiny repository and in the 150k-file tree; reference: a bare `node` program that enters
//   raw mode, draws a prompt and echoes keys, through the same relay;
// - keystroke echo latency while the 150k-file index is being built (time from writing one key
//   to the pty until the redrawn prompt line containing it comes back); reference: the bare echo
//   program's latency through the same relay.
//
// No model server is needed: nothing is sent before Enter.

const mainJs = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const RUNS = 5;
const KEYS_PER_RUN = 60;
const KEY_GAP_MS = 8;

/** The reference program: raw mode, a prompt, every key echoed by redrawing the line. */
export const BARE_ECHO = `
process.stdin.setRawMode(true); process.stdin.setEncoding('utf8');
let line = '';
process.stdout.write('\\r\\x1b[K› ');
process.stdin.on('data', (d) => {
  if (d === '\\x04') process.exit(0);
  if (d === '\\x15') line = ''; else line += d;
  process.stdout.write('\\r\\x1b[K› ' + line);
});`;

function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '');
}

export class Pty {
  /**
   * The output as it came, in chunks, with where each starts: a check reads only what came after
   * its offset. (One string grown by `+=` was flattened whole by every `slice`, a copy of all the
   * session's output per chunk: in a session of a few thousand keys that alone added milliseconds
   * to each echo, more to reika's than to the bare program's, whose frames are smaller.)
   */
  private readonly chunks: string[] = [];
  private readonly starts: number[] = [];
  private total = 0;
  private readonly waiters = new Set<() => void>();
  readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      this.chunks.push(chunk);
      this.starts.push(this.total);
      this.total += chunk.length;
      for (const waiter of [...this.waiters]) waiter();
    });
    child.stderr!.resume();
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  /** The output from `offset` on. */
  private since(offset: number): string {
    let low = 0;
    let high = this.chunks.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.starts[middle]! + this.chunks[middle]!.length <= offset) low = middle + 1;
      else high = middle;
    }
    if (low === this.chunks.length) return '';
    return this.chunks[low]!.slice(Math.max(0, offset - this.starts[low]!)) + this.chunks.slice(low + 1).join('');
  }

  /** Whether util-linux `script`, which makes the pseudo-terminal, is here. */
  static available(): boolean {
    const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
    return !probe.error && probe.status === 0 && /util-linux/.test(probe.stdout);
  }

  static spawn(command: string[], cwd: string, env: NodeJS.ProcessEnv): Pty {
    const quoted = command.map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qfec', `stty cols 80 rows 24; exec ${quoted}`, '/dev/null'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    return new Pty(child);
  }

  get length(): number {
    return this.total;
  }

  write(data: string): void {
    this.child.stdin!.write(data);
  }

  /** Resolves with `performance.now()` at the first output (from `offset` on) that satisfies `test`. */
  waitFor(test: (text: string) => boolean, offset = 0, timeoutMs = 20_000): Promise<number> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (test(stripAnsi(this.since(offset)))) {
          this.waiters.delete(check);
          clearTimeout(timer);
          resolve(performance.now());
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no matching output within ${timeoutMs} ms; got:\n${stripAnsi(this.since(Math.max(0, this.total - 8000))).slice(-2000)}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  async close(): Promise<void> {
    this.write('\x15\x04');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await this.exited;
    clearTimeout(timer);
  }
}

interface Startup {
  prompt: number;
  echo: number;
}

/** Spawn → prompt on screen, and spawn → a key typed then echoed. */
export async function startup(command: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Startup & { pty: Pty }> {
  const started = performance.now();
  const pty = Pty.spawn(command, cwd, env);
  const prompt = await pty.waitFor((text) => text.includes('› '));
  const offset = pty.length;
  pty.write('q');
  const echo = await pty.waitFor((text) => text.includes('› q'), offset);
  return { prompt: prompt - started, echo: echo - started, pty };
}

/** Types keys one at a time, each after the previous echo; returns each key's echo latency. */
export async function echoLatencies(pty: Pty, count: number, typedBefore: string, onSend?: (sentAt: number) => void): Promise<number[]> {
  const latencies: number[] = [];
  let typed = typedBefore;
  for (let i = 0; i < count; i++) {
    const key = String.fromCharCode(97 + (i % 26));
    typed += key;
    const offset = pty.length;
    const sent = performance.now();
    pty.write(key);
    onSend?.(sent);
    const seen = await pty.waitFor((text) => text.includes(`› ${typed}`), offset);
    latencies.push(seen - sent);
    await new Promise((resolve) => setTimeout(resolve, KEY_GAP_MS));
  }
  return latencies;
}

export default async function (): Promise<void> {
  if (!Pty.available()) {
    process.stdout.write('skipped: this bench needs util-linux `script` to get a pseudo-terminal\n');
    return;
  }
  const home = mkdtempSync(join(tmpdir(), 'reika-tui-bench-home-'));
  const tiny = mkdtempSync(join(tmpdir(), 'reika-tui-bench-tiny-'));
  writeFileSync(join(tiny, 'index.ts'), 'export const answer = 42;\n');
  // Nothing listens here: the session's connection fails quietly in the background, which is fine
  // because no message is sent. The scan and the repo map still run.
  const env = { ...process.env, HOME: home, TERM: 'xterm-256color', REIKA_BASE_URL: 'http://127.0.0.1:9/v1', REIKA_MODEL: 'bench', REIKA_CONTEXT_WINDOW: '32000' };
  const big = await ensureBigTree();
  const reika = [process.execPath, mainJs];
  const bare = [process.execPath, '-e', BARE_ECHO];

  const collect = async (command: string[], cwd: string) => {
    const prompts: number[] = [];
    const echoes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await startup(command, cwd, env);
      prompts.push(run.prompt);
      echoes.push(run.echo);
      await run.pty.close();
    }
    return { prompt: summarize(prompts), echo: summarize(echoes) };
  };

  const reference = await collect(bare, tiny);
  const tinyRun = await collect(reika, tiny);
  const bigRun = await collect(reika, big);
  const ms = (value: number) => `${fmt(value)} ms`;
  row('spawn → prompt, tiny repo (median)', ms(tinyRun.prompt.p50), ms(reference.prompt.p50), tinyRun.prompt.p50 / reference.prompt.p50, '≤ 150 ms');
  row('spawn → prompt, 150k-file tree (median)', ms(bigRun.prompt.p50), ms(reference.prompt.p50), bigRun.prompt.p50 / reference.prompt.p50, '≤ 150 ms, = tiny');
  row('spawn → first key echoed, tiny repo (median)', ms(tinyRun.echo.p50), ms(reference.echo.p50), tinyRun.echo.p50 / reference.echo.p50);
  row('spawn → first key echoed, 150k tree (median)', ms(bigRun.echo.p50), ms(reference.echo.p50), bigRun.echo.p50 / reference.echo.p50);

  // Keystrokes while the big tree is indexed: start typing as soon as the prompt is up.
  const during: number[] = [];
  const referenceEcho: number[] = [];
  const indexedAfter: number[] = [];
  let keysBeforeIndexed = 0;
  for (let i = 0; i < RUNS; i++) {
    const run = await startup(reika, big, env);
    const started = performance.now();
    let indexedAt: number | undefined;
    const indexed = run.pty.waitFor((text) => /files? indexed/.test(text), 0, 60_000).then((at) => (indexedAt = at));
    const latencies = await echoLatencies(run.pty, KEYS_PER_RUN, 'q', (sentAt) => {
      if (indexedAt === undefined || sentAt < indexedAt) keysBeforeIndexed++;
    });
    during.push(...latencies);
    await indexed.catch(() => {});
    if (indexedAt !== undefined) indexedAfter.push(indexedAt - started);
    await run.pty.close();
    const ref = await startup(bare, tiny, env);
    referenceEcho.push(...(await echoLatencies(ref.pty, KEYS_PER_RUN, 'q')));
    await ref.pty.close();
  }
  const echo = summarize(during);
  const refEcho = summarize(referenceEcho);
  row('key echo while indexing 150k tree, p50', ms(echo.p50), ms(refEcho.p50), echo.p50 / refEcho.p50);
  row('key echo while indexing 150k tree, p99', ms(echo.p99), ms(refEcho.p99), echo.p99 / refEcho.p99, '≤ 16 ms');
  row('key echo while indexing 150k tree, max', ms(echo.max), ms(refEcho.max), echo.max / refEcho.max);
  const indexedMean = indexedAfter.reduce((a, b) => a + b, 0) / (indexedAfter.length || 1);
  process.stdout.write(
    `(${keysBeforeIndexed} of ${during.length} keys were typed before the bootstrap reported the index; it did so ${fmt(indexedMean / 1000, 2)} s after the prompt on average, in ${indexedAfter.length} of ${RUNS} runs)\n`,
  );
  rmSync(home, { recursive: true, force: true });
  rmSync(tiny, { recursive: true, force: true });
}
