import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitRepo, tempDir } from '../test/helpers/temp.js';
import { firstRequest, treeSize } from './first-request.js';
import { fmt, row, summarize } from './stats.js';
import { Pty, startup } from './tui.bench.js';

// MCP servers must not delay the start (SPEC §14: they start beside the session and join later):
// the same runs as `startup` (spawn → first chat request, `reika -p` in a tiny repo) and `tui`
// (spawn → prompt drawn, through a pty), once with no MCP server configured and once with two
// stdio servers in the user's mcp.json (`@modelcontextprotocol/server-everything` and
// `server-filesystem`, the devDependencies the tests use). The two configurations alternate run
// by run, so load on the machine hits both alike; the reference of each row is the run without
// servers. The bench also counts the processes each `reika -p` tree reached, to show the servers
// were really started.

const mainJs = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const RUNS = Number(process.env.REIKA_BENCH_RUNS) || 7;
const require = createRequire(import.meta.url);

function serverEntry(name: string): string {
  return join(dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist', 'index.js');
}

/** An XDG_CONFIG_HOME whose reika/mcp.json holds `servers`. */
function configHome(servers: Record<string, unknown>): string {
  const home = tempDir('reika-bench-mcp-config-');
  mkdirSync(join(home, 'reika'), { recursive: true });
  writeFileSync(join(home, 'reika', 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  return home;
}

/** `reika -p` once: spawn → the first chat request at the scripted server, and the largest the process tree got. */
async function headless(cwd: string, env: NodeJS.ProcessEnv): Promise<{ firstMs: number; processes: number }> {
  const run = await firstRequest({ args: [mainJs, '-p', 'say ok'], cwd, env, sample: treeSize });
  if (/MCP/.test(run.stderr)) throw new Error(`an MCP server did not start: ${run.stderr.slice(-500)}`);
  return { firstMs: run.firstMs, processes: run.peak };
}

/** Which configuration runs first in round `i`: they take turns. */
const order = (i: number): ('none' | 'two')[] => (i % 2 === 0 ? ['none', 'two'] : ['two', 'none']);

export default async function (): Promise<void> {
  const tiny = gitRepo({ 'package.json': '{"name":"tiny","scripts":{"test":"node --test"}}\n', 'src/index.ts': 'export function main() {}\n', 'README.md': '# tiny\n' });
  const state = tempDir('reika-bench-mcp-state-');
  const none = { XDG_STATE_HOME: state, XDG_CONFIG_HOME: configHome({}) };
  const two = {
    XDG_STATE_HOME: state,
    XDG_CONFIG_HOME: configHome({
      everything: { command: process.execPath, args: [serverEntry('server-everything'), 'stdio'] },
      files: { command: process.execPath, args: [serverEntry('server-filesystem'), '.'] },
    }),
  };
  // Warm the file cache, the compile cache and the bootstrap cache once; not counted.
  await headless(tiny, none);
  await headless(tiny, two);

  const first = { none: [] as number[], two: [] as number[] };
  const processes = { none: 0, two: 0 };
  for (let i = 0; i < RUNS; i++) {
    for (const name of order(i)) {
      const run = await headless(tiny, name === 'none' ? none : two);
      first[name].push(run.firstMs);
      processes[name] = Math.max(processes[name], run.processes);
    }
  }
  const withServers = summarize(first.two);
  const without = summarize(first.none);
  row('spawn → first request, 2 stdio MCP servers (median ms)', fmt(withServers.p50), `${fmt(without.p50)} none`, withServers.p50 / without.p50, '≈ ×1.0');
  process.stdout.write(`  (spread without servers: ${fmt(Math.min(...first.none))}–${fmt(without.max)} ms; with: ${fmt(Math.min(...first.two))}–${fmt(withServers.max)} ms; largest process tree ${processes.two} with servers, ${processes.none} without)\n`);

  if (!Pty.available()) {
    process.stdout.write('spawn → prompt skipped: it needs util-linux `script` to get a pseudo-terminal\n');
    return;
  }
  const home = tempDir('reika-bench-mcp-home-');
  const tty = { ...process.env, HOME: home, TERM: 'xterm-256color', REIKA_BASE_URL: 'http://127.0.0.1:9/v1', REIKA_MODEL: 'bench', REIKA_CONTEXT_WINDOW: '32000' };
  const prompt = { none: [] as number[], two: [] as number[] };
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const name of order(i)) {
        const run = await startup([process.execPath, mainJs], tiny, { ...tty, ...(name === 'none' ? none : two) });
        prompt[name].push(run.prompt);
        await run.pty.close();
      }
    }
  } catch (error) {
    process.stdout.write(`spawn → prompt skipped: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
    return;
  }
  const promptWith = summarize(prompt.two);
  const promptWithout = summarize(prompt.none);
  row('spawn → prompt, 2 stdio MCP servers (median ms)', fmt(promptWith.p50), `${fmt(promptWithout.p50)} none`, promptWith.p50 / promptWithout.p50, '≈ ×1.0');
  process.stdout.write(`  (spread without servers: ${fmt(Math.min(...prompt.none))}–${fmt(promptWithout.max)} ms; with: ${fmt(Math.min(...prompt.two))}–${fmt(promptWith.max)} ms)\n`);
  rmSync(home, { recursive: true, force: true });
}
