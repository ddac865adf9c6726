import test from 'ava';
import { identifierHashes, WatchedWords } from '../../../../../actors/indexer/map/identifiers.js';
import type { Language } from '../../../../../actors/indexer/map/symbols/language.js';
import { languageOf } from '../../../../../actors/indexer/map/symbols/languages.js';
import { definitionsOf } from './definitions-of.js';

const moduleSource = `import { readFile } from 'node:fs/promises';
import type { Logger } from './logger.js';

/** Where sessions are kept. */
export const SESSION_DIR = '.reika/sessions';
const MAX_ENTRIES = 200;

export interface SessionStore {
  load(id: string): Promise<Session>;
}

export type SessionId = string & { readonly brand: 'session' };
export enum SessionState { Open, Closed }
export const enum Flags { None = 0 }
export declare function nativeHash(input: string): number;

export async function loadSession(path: string): Promise<Session> {
  const text = await readFile(path, 'utf8');
  return parse(text);
}

export function* entries(session: Session) {
  yield* session.items;
}

function parse(text: string): Session {
  return JSON.parse(text) as Session;
}

export abstract class BaseStore implements SessionStore {
  abstract load(id: string): Promise<Session>;
}

class Session {
  items: string[] = [];
}

interface Internal { x: number }

export namespace Formats {
  export const json = 'json';
}

export { parse as parseSession, Session };
export type { Internal as InternalShape };
export * from './store.js';
export * as codecs from './codecs.js';
export {
  readSnapshot,
  writeSnapshot as saveSnapshot,
} from './snapshot.js';

export default class SessionManager {}
`;

test('a TypeScript module lists its exports, re-exports included, and keeps the rest private', (t) => {
  t.deepEqual(definitionsOf('src/session.ts', moduleSource), [
    '+ SESSION_DIR variable',
    '- MAX_ENTRIES variable',
    '+ SessionStore interface',
    '+ SessionId type',
    '+ SessionState enum',
    '+ Flags enum',
    '+ nativeHash function',
    '+ loadSession function',
    '+ entries function',
    '- parse function',
    '+ BaseStore class',
    '+ Session class',
    '- Internal interface',
    '+ Formats module',
    '+ parseSession variable',
    '+ InternalShape variable',
    '+ codecs module',
    '+ readSnapshot variable',
    '+ saveSnapshot variable',
    '+ SessionManager class',
  ]);
});

test('an anonymous default export is named default, a named one keeps its name', (t) => {
  t.deepEqual(definitionsOf('actors/echo.ts', `import { defineActor } from '../runtime/actor.js';\n\nexport default defineActor({\n  handle(request) {\n    return request;\n  },\n});\n`), [
    '+ default variable',
  ]);
  t.deepEqual(definitionsOf('a.js', `const handler = () => 1;\nexport default handler;\n`), ['+ handler variable']);
  t.deepEqual(definitionsOf('b.mjs', `export default async function main() {}\n`), ['+ main function']);
  t.deepEqual(definitionsOf('c.tsx', `export default class extends Base {}\n`), ['+ default variable']);
});

test('CommonJS exports are found in module.exports objects and exports assignments', (t) => {
  const source = `'use strict';
const path = require('path');

function resolveConfig(dir) {
  return path.join(dir, 'config.json');
}

function loadConfig(dir) {
  return require(resolveConfig(dir));
}

function secret() {}

exports.VERSION = '1.0.0';
module.exports.defaults = { verbose: false };

module.exports = {
  resolveConfig,
  loadConfig: loadConfig,
  async reload(dir) {},
};
`;
  t.deepEqual(definitionsOf('lib/config.cjs', source), [
    '- path variable',
    '+ resolveConfig function',
    '+ loadConfig function',
    '- secret function',
    '+ VERSION variable',
    '+ defaults variable',
    '+ reload variable',
  ]);
  t.deepEqual(definitionsOf('lib/index.js', `module.exports = require('./config');\n`), []);
  t.deepEqual(definitionsOf('lib/server.js', `class Server {}\nmodule.exports = Server;\n`), ['+ Server class']);
});

test('a script without exports lists its top-level declarations as globals', (t) => {
  const source = `const canvas = document.getElementById('c');\n\nfunction draw(frame) {\n  const inner = 1;\n}\n\nclass Sprite {}\n`;
  t.deepEqual(definitionsOf('public/game.js', source), ['+ canvas variable', '+ draw function', '+ Sprite class']);
});

test('a module without exports keeps its top-level names private', (t) => {
  const esm = `import { run } from './run.js';\n\nconst wanted = process.argv.slice(2);\nfunction main() {}\n`;
  t.deepEqual(definitionsOf('bench/run.ts', esm), ['- wanted variable', '- main function']);
  const cjs = `const fs = require('fs');\nfunction main() {}\nmain();\n`;
  t.deepEqual(definitionsOf('bin/cli.js', cjs), ['- fs variable', '- main function']);
});

test('CRLF line ends and a byte-order mark change nothing', (t) => {
  const lf = `export default Store;\nexport const a = 1;\nexport {\n  b as c,\n} from './b.js';\n`;
  t.deepEqual(definitionsOf('src/x.ts', lf.replace(/\n/g, '\r\n')), definitionsOf('src/x.ts', lf));
  t.deepEqual(definitionsOf('src/x.ts', lf), ['+ Store variable', '+ a variable', '+ c variable']);
});

test('imports, re-exports, require and import() give the modules a file imports, without ESM extensions', (t) => {
  const typescript = languageOf('src/app.ts')!;
  const source = `import React from "react";
import type { Store } from './store.js';
import {
  a,
  b,
} from '../shared/util';
import './styles.css';
export * from "./types";
export { Debug } from '../debug';
const lazy = () => import('./lazy/Panel.tsx');
const fs = require('node:fs');
import raw from './shader.glsl?raw';
`;
  t.deepEqual(typescript.imports!(source), ['react', './store', '../shared/util', './styles.css', './types', '../debug', './lazy/Panel', 'node:fs', './shader.glsl']);
});

/** The imports found at the keywords' places, as extraction finds them (`identifierHashes` notes the places). */
function importsAtKeywords(language: Language, text: string): string[] {
  const at: number[] = [];
  identifierHashes(text, new WatchedWords(language.importWords!), at);
  return language.imports!(text, at);
}

test('imports read only at the keywords’ places are the imports a search of the whole text finds', (t) => {
  const typescript = languageOf('src/app.ts')!;
  const sources = [
    `import React from "react";\nimport type { Store } from './store.js';\nexport * from "./types";\nconst fs = require('node:fs');\n`,
    // A keyword inside the text of a match is not read again ('require'i').
    `import x from 'a import "b"'; from 'c' 1from 'e' _import('f') import\t(\n  './g') x.require('h') from 'require'i'`,
    // After a '$' a keyword is a word for \b, though not an identifier of its own: the whole text is read.
    `import a from 'a'; x$from 'd'`,
    `import raw from './shader.glsl?raw'; import y from './x y'; import z from './v.mjs#frag'; import w from 'q?a\rb'`,
    `const fromage = 1; import('${'x'.repeat(301)}'); import ''; import ".js"; require('./ok.cts')`,
  ];
  for (const source of sources) t.deepEqual(importsAtKeywords(typescript, source), typescript.imports!(source), source);
  t.deepEqual(importsAtKeywords(typescript, sources[1]!), ['b', 'c', './g', 'h', 'require']);
  t.deepEqual(importsAtKeywords(typescript, sources[2]!), ['a', 'd']);
});
