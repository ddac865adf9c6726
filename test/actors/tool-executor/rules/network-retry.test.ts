import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sandboxState } from '../../../../actors/tool-executor/safety/sandbox.js';
import { HEADLESS_DECLINE_NOTE, declineHeadless } from '../../../../cli/headless/approver.js';
import { call } from '../harness.js';

// SPEC §12: a command run unapproved has no network; when it fails for that, the question is
// "run it again with the network?". Real bubblewrap, a real loopback server out here.
const state = await sandboxState(undefined);
const sandboxed = state.kind === 'bwrap' ? test : test.skip;

async function project(t: { teardown(fn: () => void): void }): Promise<{ root: string; hits: string[] }> {
  const root = mkdtempSync('/var/tmp/reika-net-retry-');
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.end('pong');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`;
  writeFileSync(join(root, 'fetch.js'), `fetch(${JSON.stringify(url)}).then((r) => r.text()).then(console.log, (e) => { console.log('failed:', e.cause?.message); process.exit(3); })`);
  return { root, hits };
}

sandboxed('a command that failed for lack of network is asked about and, approved, runs again with it', async (t) => {
  const { root, hits } = await project(t);
  const result = await call(root, 'bash', { command: 'node fetch.js' });
  t.is(result.asked.length, 1);
  t.regex(result.asked[0]!.reason, /^it failed without the network \(exit code 3 after [\d.]+ s; the sandbox gives it only to approved commands\): run it again with the network\?$/);
  t.deepEqual(result.asked[0]!.rules, ['Bash(node fetch.js:*)']);
  t.is(result.status, 'done');
  t.regex(result.summary, /^run again with the network: exit code 0/);
  t.regex(result.payload, /pong/);
  t.deepEqual(hits, ['/ping']);
});

sandboxed('declined by the person, the failure stands as an error saying so', async (t) => {
  const { root, hits } = await project(t);
  const result = await call(root, 'bash', { command: 'node fetch.js' }, { ask: async () => ({ decision: 'decline', note: 'the user declined this action: no network today' }) });
  t.is(result.status, 'error');
  t.is(result.errorCode, 'NO_NETWORK');
  t.regex(result.summary, /^exit code 3 after .*; no network in the sandbox.*; not run again with the network: the user declined this action: no network today$/);
  t.regex(result.payload, /connect ECONNREFUSED 127\.0\.0\.1/);
  t.deepEqual(hits, []);
});

sandboxed('headless, it is reported as declined', async (t) => {
  const { root, hits } = await project(t);
  const result = await call(root, 'bash', { command: 'node fetch.js' }, { ask: async (request) => declineHeadless(request) });
  t.is(result.status, 'declined');
  t.regex(result.summary, /^declined: it failed without the network \(exit code 3 after [\d.]+ s\), and running it again with the network was declined: nobody can approve it here$/);
  t.true(result.payload.includes(HEADLESS_DECLINE_NOTE));
  t.deepEqual(hits, []);
});

sandboxed('a failure that is not about the network is not asked about', async (t) => {
  const { root } = await project(t);
  const result = await call(root, 'bash', { command: 'echo nope; exit 4' });
  t.deepEqual(result.asked, []);
  t.is(result.status, 'done');
  t.regex(result.summary, /^exit code 4/);
});
