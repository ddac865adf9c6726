import test from 'ava';
import { execFile, execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { locateSubcommand } from '../../cli/subcommand.js';
import { reikaBin } from '../helpers/binary.js';
import { gitRepo } from '../helpers/temp.js';
import { testSite, watchChild } from '../helpers/watchdog.js';

const binary = pathToFileURL(reikaBin);

/** Runs the built `reika` with a model server nowhere in reach: a turn would fail to connect. */
function reika(args: string[], cwd?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const site = testSite();
  return new Promise((resolve) => {
    const env = { ...process.env, REIKA_BASE_URL: 'http://127.0.0.1:9/v1' };
    const child = execFile(process.execPath, [binary.pathname, ...args], { cwd, env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
    watchChild(child, `reika ${args.join(' ')}`, { site });
  });
}

test('a subcommand is found after the session flags, with --cwd taken as its folder', (t) => {
  t.deepEqual(locateSubcommand(['--cwd', '../vue', 'map']), { kind: 'subcommand', name: 'map', args: [], cwd: '../vue' });
  t.deepEqual(locateSubcommand(['-C', 'x', 'index', '--json']), { kind: 'subcommand', name: 'index', args: ['--json'], cwd: 'x' });
  t.deepEqual(locateSubcommand(['--profile', 'local', 'doctor']), { kind: 'subcommand', name: 'doctor', args: ['--profile', 'local'] });
  t.deepEqual(locateSubcommand(['sessions', '--all']), { kind: 'subcommand', name: 'sessions', args: ['--all'] });
});

test('a flag value or an explicit prompt is never taken for a subcommand', (t) => {
  t.deepEqual(locateSubcommand(['--profile', 'map']), { kind: 'session' });
  t.deepEqual(locateSubcommand(['-p', 'map']), { kind: 'session' });
  t.deepEqual(locateSubcommand(['--mode', 'plan', '-p', 'doctor the tests']), { kind: 'session' });
  t.deepEqual(locateSubcommand(['fix the failing test']), { kind: 'session' });
  t.deepEqual(locateSubcommand([]), { kind: 'session' });
});

test('a lone word close to a subcommand is refused with the command meant', (t) => {
  const located = locateSubcommand(['--cwd', 'x', 'mpa']);
  t.is(located.kind, 'error');
  if (located.kind === 'error') t.is(located.message, '"mpa" is not a command; did you mean reika map? (to give it as a task: reika -p "mpa")');
  t.is(locateSubcommand(['doctr']).kind, 'error');
  t.is(locateSubcommand(['refactor']).kind, 'session');
});

test('reika --cwd DIR map prints the map of DIR and starts no turn', async (t) => {
  const repo = gitRepo({ 'src/app.ts': 'export function startApp() {}\n', 'src/main.ts': "import { startApp } from './app.js';\nstartApp();\n" });
  const run = await reika(['--cwd', repo, 'map']);
  t.is(run.code, 0, run.stderr);
  t.regex(run.stdout, /src\/app\.ts/);
  t.is(run.stderr, '');
});

test('reika --profile NAME doctor runs the doctor, not a turn with the prompt "doctor"', async (t) => {
  const run = await reika(['--cwd', '.', '--profile', 'nosuch', 'doctor']);
  t.notRegex(run.stderr + run.stdout, /session: request|connecting/i);
  t.regex(run.stderr + run.stdout, /profile|doctor|server/i);
});

test('a mistyped subcommand is exit 2 with one line, and nothing is sent', async (t) => {
  const run = await reika(['mpa']);
  t.is(run.code, 2);
  t.is(run.stderr, 'reika: "mpa" is not a command; did you mean reika map? (to give it as a task: reika -p "mpa")\n');
});

test('reika completion bash gives a script bash completes subcommands, flags and their values with', async (t) => {
  const run = await reika(['completion', 'bash']);
  t.is(run.code, 0, run.stderr);
  const complete = (line: string): string[] => {
    const words = line.split(' ');
    const probe = `${run.stdout}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _reika; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return execFileSync('bash', ['-c', probe], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
  };
  t.deepEqual(complete('reika ma'), ['map']);
  t.deepEqual(complete('reika --cwd x d'), ['doctor']);
  t.deepEqual(complete('reika --mode '), ['agent', 'plan']);
  t.true(complete('reika --js').includes('--json'));
  t.deepEqual(complete('reika completion z'), ['zsh']);
});

test('reika completion zsh and fish print their scripts; another shell is exit 2 with one line', async (t) => {
  t.regex((await reika(['completion', 'zsh'])).stdout, /^#compdef reika$/m);
  t.regex((await reika(['completion', 'fish'])).stdout, /^complete -c reika -n __fish_use_subcommand -a map$/m);
  const bad = await reika(['completion', 'tcsh']);
  t.is(bad.code, 2);
  t.is(bad.stderr, 'reika: completion takes one of bash, zsh, fish (e.g. reika completion bash >> ~/.bashrc)\n');
});
