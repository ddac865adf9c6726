import test from 'ava';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sandboxState } from '../../../actors/tool-executor/safety/sandbox.js';
import { tmuxMissing } from '../../helpers/tmux.js';
import { startReika, toolMessage } from './reika-term.js';

/**
 * Issue 30 in a real terminal (tmux, the built binary, the scripted model): "Always" writes the
 * rule to the chosen settings file, a decline can say why, /permissions lists and removes, and a
 * sandboxed command that needed the network gets the question to run it again with it.
 */

const missing = tmuxMissing();
const box = await sandboxState(undefined);
const maybe = missing ? test.skip : test.serial;
const terminal = { width: 120, height: 35, noColor: true };

maybe('"Always here" writes the rule to .reika/settings.local.json, and /permissions lists and removes it', async (t) => {
  const { term, root } = await startReika(t, terminal, [{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf victim' } }] }, { content: 'deleted' }], {
    tree: { 'victim/file.txt': 'x\n', 'README.md': '# demo\n' },
  });
  term.type('delete the victim folder');
  term.keys('Enter');
  const asking = await term.waitFor('Always here (a)');
  t.regex(asking, /"Always" allows Bash\(rm -rf victim\)/);
  t.regex(asking, /Always, every project \(u\)/);
  term.type('a');
  await term.waitFor('deleted');
  t.regex(term.capture(), /→ approved; always: allow Bash\(rm -rf victim\) → .*\.reika\/settings\.local\.json/);
  const local = join(root, '.reika/settings.local.json');
  t.deepEqual(JSON.parse(readFileSync(local, 'utf8')), { permissions: { allow: ['Bash(rm -rf victim)'] } });
  t.false(existsSync(join(root, 'victim')));
  term.type('/permissions');
  term.keys('Enter');
  const listed = await term.waitFor('Permission rules');
  t.regex(listed, /allow +Bash\(rm -rf victim\) +.*\.reika\/settings\.local\.json/);
  term.type('/permissions remove allow Bash(rm -rf victim)');
  term.keys('Enter');
  await term.waitFor('removed allow Bash(rm -rf victim)');
  t.deepEqual(JSON.parse(readFileSync(local, 'utf8')), { permissions: { allow: [] } });
});

maybe('"Decline, say why" sends the reason to the model', async (t) => {
  const { term, server, root } = await startReika(t, terminal, [{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf victim' } }] }, { content: 'understood' }], {
    tree: { 'victim/file.txt': 'x\n' },
  });
  term.type('delete the victim folder');
  term.keys('Enter');
  await term.waitFor('Decline, say why (r)');
  term.type('r');
  await term.waitFor('Why not?');
  term.type('move it to trash instead');
  term.keys('Enter');
  await term.waitFor('understood');
  t.regex(term.capture(), /→ declined: move it to trash instead/);
  t.regex(toolMessage(server, 1), /the user declined this action: move it to trash instead/);
  t.true(existsSync(join(root, 'victim/file.txt')));
});

(box.kind === 'bwrap' ? maybe : test.skip)('a sandboxed command that failed for lack of network gets the question, and runs again with it', async (t) => {
  const hits: string[] = [];
  const local = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.end('pong');
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  t.teardown(() => local.close());
  const url = `http://127.0.0.1:${(local.address() as AddressInfo).port}/ping`;
  const { term, server, root } = await startReika(t, terminal, [{ toolCalls: [{ name: 'bash', arguments: { command: 'node fetch.js' } }] }, { content: 'fetched it' }], {
    tree: { 'README.md': '# demo\n' },
  });
  writeFileSync(join(root, 'fetch.js'), `fetch(${JSON.stringify(url)}).then((r) => r.text()).then(console.log, (e) => { console.log('failed:', e.cause?.message); process.exit(3); })`);
  term.type('fetch it');
  term.keys('Enter');
  const asking = await term.waitFor('run it again with the network?');
  t.regex(asking, /\? bash needs approval: it failed without the network \(exit code 3/);
  t.deepEqual(hits, []);
  term.type('y');
  await term.waitFor('fetched it');
  t.deepEqual(hits, ['/ping']);
  t.regex(term.capture(), /✓ bash node fetch\.js — run again with the network: exit code 0/);
  t.regex(toolMessage(server, 1), /pong/);
});

maybe('declining the network question leaves a ✗ with the reason, never a ✓', async (t) => {
  const { term } = await startReika(t, terminal, [{ toolCalls: [{ name: 'bash', arguments: { command: 'node fetch.js' } }] }, { content: 'gave up' }], {
    tree: { 'fetch.js': "fetch('http://127.0.0.1:39/x').then(() => console.log('ok'), (e) => { console.log('failed:', e.cause?.message); process.exit(3); })\n" },
    env: { REIKA_SANDBOX: 'bwrap' },
  });
  term.type('fetch it');
  term.keys('Enter');
  await term.waitFor('run it again with the network?');
  term.type('n');
  await term.waitFor('gave up');
  // A finished line wraps under its mark: read it joined.
  const screen = term.capture().replace(/\n {2}(?=\S)/g, ' ');
  t.regex(screen, /✗ bash node fetch\.js — exit code 3 .*not run again with the network: the user declined this action/);
  t.notRegex(screen, /✓ bash node fetch\.js/);
});
