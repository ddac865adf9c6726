import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO as repo, sourceFiles } from '../helpers/source-files.js';

// One error base (STYLE.md, "Errors"): an error another file may catch is a ReikaError with a code
// of the closed set and a static isInstance, because errors cross thread and process boundaries as
// records and `instanceof` does not survive that. Only runtime/errors.ts extends Error itself; a
// class private to one file (thrown and caught there, for control flow) may extend it too. Read
// from the TypeScript sources.

const BASE = 'runtime/errors.ts';
const SELF = 'test/runtime/error-classes.test.ts';
const PLAIN = String.raw`(?:globalThis\.)?(?:Error|TypeError|RangeError|SyntaxError)`;

const all = ['runtime', 'actors', 'workers', 'cli', 'bench', 'test'].flatMap(sourceFiles).filter((file) => file !== SELF);

/** Each class of `file` that extends a plain Error and leaves the file: declared with `export`, or named in an `export { … }`. */
function exportedPlainErrors(file: string): string[] {
  const text = readFileSync(join(repo, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(new RegExp(String.raw`^[ \t]*(export[ \t]+(?:default[ \t]+)?)?(?:abstract[ \t]+)?class[ \t]+(\w+)[ \t]+extends[ \t]+${PLAIN}\b`, 'gm'))) {
    const name = match[2]!;
    const reexported = new RegExp(String.raw`\bexport[ \t]*(?:type[ \t]*)?\{[^}]*\b${name}\b[^}]*\}|\bexport[ \t]+default[ \t]+${name}\b`).test(text);
    if (match[1] || reexported) found.push(`${file}: ${name}`);
  }
  return found;
}

test('only runtime/errors.ts exports a class that extends Error; every other error class extends ReikaError', (t) => {
  t.deepEqual(exportedPlainErrors(BASE), [`${BASE}: ReikaError`], 'the scan finds the base, so it would find another');
  const offenders = all.filter((file) => file !== BASE).flatMap(exportedPlainErrors);
  t.deepEqual(offenders, [], 'extend ReikaError with a code from ERROR_CODES and a static isInstance by that code');
});
