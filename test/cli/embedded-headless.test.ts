import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { embeddedUnavailable, tinyModel } from '../helpers/embedded.js';
import { gitRepo, tempDir } from '../helpers/temp.js';
import { processesIn, runReika } from './headless-helpers.js';

/**
 * `reika -p` with `REIKA_MODEL=./model.gguf` and no server: the built binary runs a tiny
 * random-weight llama model inside its model-io thread. A REIKA_EMBEDDED_SCRIPT pins what the
 * noise model may write (a read, an edit, an answer); the tokens are still sampled by llama.cpp,
 * the calls parsed and run by reika, and the cache figures are the engine's own.
 */

const unavailable = await embeddedUnavailable();
const it = unavailable ? test.skip : test;
if (unavailable) test.skip(`embedded headless tests skipped: node-llama-cpp cannot load here (${unavailable})`, () => {});

function script(steps: unknown[]): string {
  const path = join(tempDir(), 'script.json');
  writeFileSync(path, JSON.stringify(steps));
  return path;
}

it('reika -p with a .gguf model reads, edits and answers with no server, each request evaluating only what was appended', async (t) => {
  const repo = gitRepo({ 'notes.txt': 'hello world\n', 'README.md': '# demo\n' });
  const model = tinyModel();
  const run = await runReika(['-p', 'Change hello to goodbye in notes.txt', '--json'], {
    cwd: repo,
    env: {
      REIKA_MODEL: model,
      REIKA_THREADS: '1',
      REIKA_CONTEXT_WINDOW: '8192',
      REIKA_EMBEDDED_SCRIPT: script([
        { call: 'read', arguments: { path: 'notes.txt' } },
        { call: 'edit', arguments: { path: 'notes.txt', old_string: 'hello', new_string: 'goodbye' } },
        { answer: 'notes.txt now says goodbye world.' },
      ]),
    },
  });
  t.is(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  t.is(result.status, 'answered');
  t.is(result.answer, 'notes.txt now says goodbye world.');
  t.is(result.model, model);
  t.deepEqual(
    result.toolCalls.map((c: { name: string; status: string }) => [c.name, c.status]),
    [
      ['read', 'done'],
      ['edit', 'done'],
    ],
  );
  t.is(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'goodbye world\n');
  const requests = result.usage.requests as Array<{ promptTokens: number; completionTokens: number; cachedTokens: number; prefilledTokens: number }>;
  t.is(requests.length, 3);
  t.is(requests[0]!.prefilledTokens, requests[0]!.promptTokens);
  for (let n = 1; n < requests.length; n++) {
    // The cache kept everything the previous request evaluated, and llama.cpp evaluated the rest only.
    t.is(requests[n]!.cachedTokens, requests[n - 1]!.promptTokens + requests[n - 1]!.completionTokens, `request ${n + 1}`);
    t.is(requests[n]!.prefilledTokens, requests[n]!.promptTokens - requests[n]!.cachedTokens, `request ${n + 1}`);
  }
  t.log(`tokens evaluated per request: ${requests.map((r) => r.prefilledTokens).join(', ')} (prompts ${requests.map((r) => r.promptTokens).join(', ')})`);
});

it('SIGINT while the embedded model generates exits 130 and leaves no process behind', async (t) => {
  const repo = gitRepo({ 'README.md': '# demo\n' });
  let signalledAt = 0;
  let texts = 0;
  const run = await runReika(['-p', 'Tell me a long story', '--stream'], {
    cwd: repo,
    // A long pinned answer: only the interrupt ends it.
    env: { REIKA_MODEL: tinyModel(), REIKA_THREADS: '1', REIKA_CONTEXT_WINDOW: '8192', REIKA_EMBEDDED_SCRIPT: script([{ answer: 'A long story that goes on and on. '.repeat(150) }]) },
    onLine(line, child) {
      const event = JSON.parse(line);
      if (event.type === 'text-delta' && ++texts === 5) {
        signalledAt = Date.now();
        child.kill('SIGINT');
      }
    },
  });
  const elapsed = Date.now() - signalledAt;
  t.true(signalledAt > 0, 'the model was generating');
  t.is(run.code, 130, run.stderr);
  t.log(`exited ${elapsed} ms after SIGINT`);
  const last = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
  t.is(last.type, 'result');
  t.is(last.status, 'aborted');
  t.deepEqual(processesIn(repo), [], 'no actor or command process is left in the project folder');
});

it('--model with a .gguf that is not there is one sentence and exit 1', async (t) => {
  const repo = gitRepo({ 'README.md': '# demo\n' });
  const run = await runReika(['-m', './missing.gguf', '-p', 'hi'], { cwd: repo });
  t.is(run.code, 1);
  t.regex(run.stderr, new RegExp(`^reika: There is no model file at ${repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/missing\\.gguf — set REIKA_MODEL to the path of a \\.gguf file\\.$`, 'm'));
});
