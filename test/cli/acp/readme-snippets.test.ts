import test from 'ava';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { reikaBin } from '../../helpers/binary.js';
import type { WireJson } from '../../helpers/scripted-server.js';
import { gitRepo } from '../../helpers/temp.js';
import { testSite, watchChild } from '../../helpers/watchdog.js';
import { cleanEnv } from '../headless-helpers.js';

/**
 * The README's editor settings (Zed, JetBrains, Neovim's CodeCompanion) are in the shape each
 * editor reads, and the command each one names really starts an ACP agent: it is run (the `reika`
 * it names is the built binary) with the snippet's arguments and environment, and answers
 * `initialize` and `session/new`.
 */

const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('### Editors'), readme.indexOf('\n### ', readme.indexOf('### Editors') + 1));

function blocks(language: string): string[] {
  return [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!);
}

/** Runs `reika ARGS` as the editor would (with `env` added), and asks initialize and session/new. */
async function startsAnAgent(args: string[], env: Record<string, string>): Promise<{ protocolVersion: number; sessionId: string }> {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const child = spawn(process.execPath, [reikaBin, ...args], { cwd: repo, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  watchChild(child, `reika ${args.join(' ')}`, { site: testSite() });
  const exited = new Promise((resolve) => child.on('close', resolve));
  const connection = client({ name: 'readme' }).connect(ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  try {
    const init = await connection.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const created = await connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
    return { protocolVersion: init.protocolVersion, sessionId: created.sessionId };
  } finally {
    child.stdin.end();
    await exited;
  }
}

test('the README has a Zed, a JetBrains and a CodeCompanion snippet', (t) => {
  t.is(blocks('json').length, 2);
  t.is(blocks('lua').length, 1);
});

test("Zed's agent_servers entry is a custom agent whose command starts reika's ACP agent", async (t) => {
  const settings = JSON.parse(blocks('json')[0]!);
  const entries = Object.entries(settings.agent_servers as Record<string, WireJson>);
  t.is(entries.length, 1);
  const [name, entry] = entries[0]!;
  t.is(name, 'Reika');
  t.deepEqual(Object.keys(entry).sort(), ['args', 'command', 'env', 'type']);
  t.is(entry.type, 'custom');
  t.is(entry.command, 'reika');
  t.true(Object.values(entry.env).every((value) => typeof value === 'string'));
  const started = await startsAnAgent(entry.args, entry.env);
  t.is(started.protocolVersion, 1);
  t.regex(started.sessionId, /^[0-9a-z]{10}$/);
});

test("JetBrains' acp.json names the command by its full path and starts reika's ACP agent", async (t) => {
  const config = JSON.parse(blocks('json')[1]!);
  const entry = (config.agent_servers as Record<string, WireJson>).Reika;
  t.truthy(entry);
  t.deepEqual(Object.keys(entry).sort(), ['args', 'command', 'env']);
  t.true(isAbsolute(entry.command) && entry.command.endsWith('/reika'));
  const started = await startsAnAgent(entry.args, entry.env);
  t.is(started.protocolVersion, 1);
});

test("CodeCompanion's adapter extends the plain ACP preset with reika's command and is the chat's adapter", async (t) => {
  const lua = blocks('lua')[0]!;
  t.regex(lua, /require\("codecompanion"\)\.setup\(\{/);
  t.regex(lua, /adapters = \{\n\s+acp = \{\n\s+reika = function\(\)\n\s+return require\("codecompanion\.adapters"\)\.extend\("goose", \{/);
  t.regex(lua, /name = "reika",/);
  t.regex(lua, /interactions = \{ chat = \{ adapter = "reika" \} \}/);
  // Balanced braces and parentheses: the snippet is one statement.
  t.is((lua.match(/\{/g) ?? []).length, (lua.match(/\}/g) ?? []).length);
  t.is((lua.match(/\(/g) ?? []).length, (lua.match(/\)/g) ?? []).length);
  const command = /commands = \{ default = \{ ([^}]*) \} \}/.exec(lua)?.[1];
  const words = [...(command ?? '').matchAll(/"([^"]*)"/g)].map((match) => match[1]!);
  t.is(words[0], 'reika');
  const started = await startsAnAgent(words.slice(1), {});
  t.is(started.protocolVersion, 1);
});
