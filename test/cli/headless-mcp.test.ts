import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { everythingEntry, filesystemEntry } from '../actors/mcp/servers.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo, tempDir } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

const servers: ScriptedServer[] = [];
test.after.always(() => Promise.all(servers.map((s) => s.close())));

/** A temp HOME whose ~/.config/reika/mcp.json holds `mcpServers`. */
function homeWith(mcpServers: Record<string, unknown>): Record<string, string> {
  const base = tempDir('reika-home-');
  mkdirSync(join(base, '.config', 'reika'), { recursive: true });
  writeFileSync(join(base, '.config', 'reika', 'mcp.json'), JSON.stringify({ mcpServers }));
  return { HOME: base, XDG_CONFIG_HOME: join(base, '.config'), XDG_STATE_HOME: join(base, '.state') };
}

function toolNames(body: { tools?: unknown }): string[] {
  return (body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
}

test('reika -p waits for the configured MCP servers: both servers’ tools are in request 0', async (t) => {
  const repo = gitRepo({ 'notes.txt': 'hello\n' });
  const env = homeWith({
    everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] },
    files: { command: process.execPath, args: [filesystemEntry(), repo] },
  });
  const s = await startScriptedServer([{ content: 'done' }]);
  servers.push(s);
  const run = await runReika(['-p', 'list the tools'], { cwd: repo, env: { ...env, REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model' } });
  t.is(run.code, 0, run.stderr);
  const names = toolNames(s.chatRequests()[0]!.json);
  t.true(names.includes('mcp__everything__echo'), names.join(' '));
  t.true(names.some((name) => name.startsWith('mcp__files__')), names.join(' '));
  t.notRegex(run.stderr, /not ready/);
});

test('a server not ready within its startup_timeout_ms is left out and named; the run goes on', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const env = homeWith({
    everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] },
    // Reads its stdin and never answers the handshake.
    mute: { command: process.execPath, args: ['-e', 'process.stdin.resume()'], startup_timeout_ms: 1500 },
  });
  const s = await startScriptedServer([{ content: 'done' }]);
  servers.push(s);
  const run = await runReika(['-p', 'hi'], { cwd: repo, env: { ...env, REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model' } });
  t.is(run.code, 0, run.stderr);
  t.regex(run.stderr, /reika: MCP server mute not ready within 1\.5 s: this run goes on without its tools/);
  const names = toolNames(s.chatRequests()[0]!.json);
  t.true(names.includes('mcp__everything__echo'));
  t.false(names.some((name) => name.startsWith('mcp__mute__')));
});
