import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * One way to listen for an abort (STYLE.md, "Cancellation"): `onAbort` and `untilAborted` of
 * `runtime/abort.ts`, which run at once on a signal already aborted and always hand back the
 * removal. A listener added by hand is how a long-lived signal collects listeners that are never
 * removed, or a wait misses an abort that came first. Read from the TypeScript sources.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const HELPER = 'runtime/abort.ts';
const SELF = 'test/runtime/abort-listeners.test.ts';

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(repo, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...sources(path));
    } else if (/\.c?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const all = ['runtime', 'actors', 'workers', 'cli', 'bench', 'test'].flatMap(sources);

/** Each line that listens for an abort by hand: `addEventListener('abort'`, its removal, `onabort =`, `once(signal, 'abort')`. */
function rawListeners(file: string): string[] {
  const lines = readFileSync(join(repo, file), 'utf8').split('\n');
  const pattern = /\b(?:add|remove)EventListener\(\s*['"`]abort['"`]|\.onabort\s*=|\b(?:once|on)\([^)]*,\s*['"`]abort['"`]/;
  return lines.flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}

test('abort listeners are added only through runtime/abort.ts', (t) => {
  t.true(rawListeners(HELPER).length >= 2, 'the scan finds the helper’s own listener, so it would find another');
  const offenders = all.filter((file) => file !== HELPER && file !== SELF).flatMap(rawListeners);
  t.deepEqual(offenders, [], 'use onAbort(signal, fn) (or untilAborted) from runtime/abort.ts');
});

test('untilAborted is defined once, in runtime/abort.ts', (t) => {
  const definitions = all
    .filter((file) => file !== SELF)
    .filter((file) => /\b(?:function\s+untilAborted\b|(?:const|let)\s+untilAborted\s*=)/.test(readFileSync(join(repo, file), 'utf8')));
  t.deepEqual(definitions, [HELPER]);
});
