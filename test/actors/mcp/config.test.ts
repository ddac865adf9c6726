import test from 'ava';
import { join } from 'node:path';
import { commandLine, expandVariables, loadMcpConfig } from '../../../actors/mcp/config.js';
import { tempDir, writeTree } from '../../helpers/temp.js';

function folders(user: unknown, project: unknown) {
  const home = tempDir();
  const root = tempDir();
  if (user !== undefined) writeTree(home, { 'mcp.json': typeof user === 'string' ? user : JSON.stringify(user) });
  if (project !== undefined) writeTree(root, { '.mcp.json': typeof project === 'string' ? project : JSON.stringify(project) });
  return { home, root };
}

test("the user's mcp.json and the project's .mcp.json are both read; a project server of the same name replaces the user's", (t) => {
  const { home, root } = folders(
    { mcpServers: { shared: { command: 'user-cmd' }, mine: { command: 'npx', args: ['-y', 'some server'], env: { TOKEN: '${TOKEN}' } } } },
    { mcpServers: { shared: { command: 'project-cmd', cwd: 'tools' }, web: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${KEY:-none}' } } } },
  );
  const config = loadMcpConfig(root, home, { TOKEN: 't0k' });
  t.deepEqual(config.problems, []);
  const byName = Object.fromEntries(config.servers.map((server) => [server.name, server]));
  t.is(byName.shared?.source, 'project');
  t.is(byName.shared?.type === 'stdio' && byName.shared.command, 'project-cmd');
  t.is(byName.shared?.type === 'stdio' && byName.shared.cwd, join(root, 'tools'));
  t.is(byName.mine?.source, 'user');
  t.deepEqual(byName.mine?.type === 'stdio' && byName.mine.env, { TOKEN: 't0k' });
  t.is(commandLine(byName.mine!), "npx -y 'some server'");
  t.deepEqual(byName.web?.type === 'http' && byName.web.headers, { Authorization: 'Bearer none' });
  t.is(commandLine(byName.web!), 'http https://example.com/mcp');
});

test('a bad file or entry is one line and the rest loads', (t) => {
  const { home, root } = folders('{ not json', { mcpServers: { good: { command: 'ok' }, bad: { args: 'x' }, secret: { command: 'x', env: { K: '${NOT_SET_ANYWHERE}' } }, odd: { type: 'ftp' }, 'has space': { command: 'x' } } });
  const config = loadMcpConfig(root, home, {});
  t.deepEqual(config.servers.map((server) => server.name), ['good']);
  t.is(config.problems.length, 5);
  t.true(config.problems.every((line) => !line.includes('\n')));
  t.regex(config.problems[0]!, /mcp\.json: not valid JSON/);
  t.true(config.problems.some((line) => line.endsWith('server "secret": "env.K" uses ${NOT_SET_ANYWHERE}, which is not set')));
  t.true(config.problems.some((line) => line.endsWith('server "odd": unknown "type" "ftp" (stdio, http or sse)')));
});

test('two servers whose tool names would read alike: the second is left out with a line', (t) => {
  const { home, root } = folders({ mcpServers: { 'my.db': { command: 'a' } } }, { mcpServers: { my_db: { command: 'b' } } });
  const config = loadMcpConfig(root, home, {});
  t.deepEqual(config.servers.map((server) => server.name), ['my.db']);
  t.is(config.problems.length, 1);
  t.regex(config.problems[0]!, /server "my_db": its tools would be named like those of "my\.db" \(mcp__my_db__…\); rename one of them$/);
});

test('${VAR} and ${VAR:-default} expand from the environment', (t) => {
  t.is(expandVariables('${A}/${B:-b}/${C:-}', { A: 'a', C: '' }), 'a/b/');
  t.throws(() => expandVariables('${MISSING}', {}, 'url'), { message: '"url" uses ${MISSING}, which is not set' });
});
