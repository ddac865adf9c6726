import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { commandDangers } from '../actors/tool-executor/shell/danger.js';
import { ProcessGroups } from '../actors/tool-executor/process/process-groups.js';
import type { ToolResult } from '../actors/tool-executor/protocol.js';
import { runTool } from '../actors/tool-executor/run-tool.js';
import { SpillStore } from '../actors/tool-executor/files/spill.js';
import { fmt, row, summarize } from './stats.js';
import { toolSettings } from '../test/helpers/tool-settings.js';

/**
 * The tool executor's own costs beside what they wrap: danger parsing per command against one
 * regular-expression scan, a `bash` call against a bare `bash -c` spawn, and `grep` over this
 * repository against `git grep`. Figures are medians (ms) unless said otherwise.
 */
// The compiled bench sits in `dist/bench/` or `.build/<name>/bench/`: the repository is above that.
const repo = fileURLToPath(new URL('..', import.meta.url)).replace(/\/(\.build\/[^/]+|dist)\/?$/, '');
const spill = new SpillStore();
const groups = new ProcessGroups();

const COMMANDS = [
  'npm test',
  'git status && git diff HEAD~1 -- src',
  'sudo -u root bash -c "cd /srv && rm -rf build"',
  'find . -name "*.o" -print0 | xargs -0 rm -f',
  'echo "rm -rf /" | tee notes.txt',
  'cat <<EOF > a.md\nrm -rf x\nEOF',
  'for f in *.ts; do node --check "$f" || exit 1; done',
  'git push --force-with-lease origin +main',
];

function tool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return runTool(
    { type: 'run', callId: 'bench', name, args, context: { root: repo, approvals: 'bypass', mode: 'agent', settings: toolSettings(repo) } },
    { root: repo, settings: toolSettings(repo), signal: new AbortController().signal, emit: () => {}, spill, groups },
    async () => ({ decision: 'approve' }),
  );
}

async function timed(times: number, run: () => Promise<unknown> | unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return summarize(samples).p50;
}

function bareBash(command: string): Promise<void> {
  return new Promise((resolve) => spawn('/bin/bash', ['-c', command], { stdio: 'ignore' }).once('close', () => resolve()));
}

function gitGrep(pattern: string): Promise<void> {
  return new Promise((resolve) => execFile('git', ['grep', '-n', '-E', pattern], { cwd: repo, maxBuffer: 1 << 26 }, () => resolve()));
}

export default async function (): Promise<void> {
  const perCommand = await timed(2_000, () => {
    for (const command of COMMANDS) commandDangers(command, repo);
  });
  const naive = /\b(rm\s+-\w*[rf]|git\s+push\s+.*(-f|--force)|curl|wget|npm\s+i)/;
  const reference = await timed(2_000, () => {
    for (const command of COMMANDS) naive.test(command);
  });
  row('danger check, µs per command (parsed)', fmt((perCommand * 1000) / COMMANDS.length), `${fmt((reference * 1000) / COMMANDS.length, 2)} regex`, perCommand / reference);

  await tool('bash', { command: 'true' });
  const viaTool = await timed(30, () => tool('bash', { command: 'true' }));
  const bare = await timed(30, () => bareBash('true'));
  row('bash `true` in a git repo (with change report)', fmt(viaTool), `${fmt(bare)} spawn`, viaTool / bare);

  const pattern = 'export (function|class) [A-Z]\\w+';
  await tool('grep', { pattern });
  const grepTool = await timed(5, () => tool('grep', { pattern }));
  const gitGrepMs = await timed(5, () => gitGrep(pattern));
  row('grep tool over this repository', fmt(grepTool), `${fmt(gitGrepMs)} git grep`, grepTool / gitGrepMs);
  spill.dispose();
}
