import { commaParts, defineLanguage, IDENT, type Found } from './language.js';

// TypeScript and JavaScript (ES modules and CommonJS). Exported: `export` declarations (also
// `export default`, whose anonymous form is named `default`), export lists and re-exports
// (`export { a as b } from`, `export * as ns from`), `export =`, `module.exports` and `exports.x`.
// Top-level declarations without `export` are private. A script (no import, export, require or
// module.exports at all) has only globals, so its top-level declarations count as exported.

const DECLARE = String.raw`(?:declare\s+)?`;
/** ES module or CommonJS syntax: such a file's top-level names are its own, not globals. */
const MODULE_SYNTAX = /^[ \t]*(?:import\b|export\b)|\brequire\s*\(|\bmodule\.exports\b/m;

/** `a`, `b as c`, `type D`, `default as E` → the names other modules import. */
function exportList(list: string): string[] {
  return commaParts(list.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')).map((part) => {
    const words = part.replace(/^type\s+/, '').split(/\s+as\s+/);
    return words[words.length - 1]!.trim();
  });
}

/** Keys of `module.exports = { a, b: c, d() {…} }` (a nested object ends the list early). */
function objectKeys(list: string): string[] {
  const keys: string[] = [];
  for (const part of commaParts(list)) {
    const key = /^(?:async\s+)?\*?\s*([A-Za-z_$][\w$]*)\s*(?::|\(|$)/.exec(part);
    if (key) keys.push(key[1]!);
  }
  return keys;
}

/**
 * `from 'm'` (imports, re-exports), `import 'm'`, `import('m')`, `require('m')`. Also inside a
 * comment or a string now and then: a stray edge, not a wrong definition.
 */
const IMPORT = /\b(?:from|import|require)\s*\(?\s*(["'])([^"'\n]{1,300})\1/g;
/** IMPORT at one place, where one of its keywords stands as a whole identifier (so `\b` holds). */
const IMPORT_AT = /(?:from|import|require)\s*\(?\s*(["'])([^"'\n]{1,300})\1/y;
const IMPORT_WORDS = ['from', 'import', 'require'];

/** Extensions `./x.js` may stand for `./x.ts` with (TypeScript's ESM spelling): `[cm]?[jt]sx?`. */
const SCRIPT_EXTENSIONS = new Set(['js', 'jsx', 'ts', 'tsx', 'cjs', 'cjsx', 'cts', 'ctsx', 'mjs', 'mjsx', 'mts', 'mtsx']);
/** A specifier with a suffix (`?raw`, `#x`) or a space takes the long way. */
const UNUSUAL = /[\s?#]/;

/** `./x?raw`, `./x.js`: the path without the suffixes; undefined for none or one with a space. */
function specifierOf(quoted: string): string | undefined {
  if (UNUSUAL.test(quoted)) {
    const specifier = quoted.replace(/[?#].*$/, '').replace(/\.(?:[cm]?[jt]sx?)$/, '');
    return specifier !== '' && !/\s/.test(specifier) ? specifier : undefined;
  }
  // The usual specifier: only its last extension to look at, without a regular expression.
  const dot = quoted.lastIndexOf('.');
  const specifier = dot !== -1 && quoted.length - dot <= 5 && SCRIPT_EXTENSIONS.has(quoted.slice(dot + 1)) ? quoted.slice(0, dot) : quoted;
  return specifier !== '' ? specifier : undefined;
}

/**
 * `\b` also holds after a `$`, which is part of an identifier: `$from 'm'` is an import the
 * places of whole identifiers miss. A file with one (rare) is searched whole.
 */
function hasDollarKeyword(text: string): boolean {
  return text.indexOf('$') !== -1 && (text.includes('$from') || text.includes('$import') || text.includes('$require'));
}

function imports(text: string, at?: readonly number[]): string[] {
  const found: string[] = [];
  if (at === undefined || hasDollarKeyword(text)) {
    IMPORT.lastIndex = 0;
    for (let match = IMPORT.exec(text); match !== null; match = IMPORT.exec(text)) {
      const specifier = specifierOf(match[2]!);
      if (specifier !== undefined) found.push(specifier);
    }
    return found;
  }
  // The same matches as the search above: each place in order, none inside the last match.
  let end = 0;
  for (let k = 0; k < at.length; k++) {
    if (at[k]! < end) continue;
    IMPORT_AT.lastIndex = at[k]!;
    const match = IMPORT_AT.exec(text);
    if (match === null) continue;
    end = IMPORT_AT.lastIndex;
    const specifier = specifierOf(match[2]!);
    if (specifier !== undefined) found.push(specifier);
  }
  return found;
}

export default defineLanguage({
  name: 'typescript',
  extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
  rules: [
    {
      pattern: new RegExp(String.raw`^export\s+(?:default\s+)?${DECLARE}(?:async\s+)?function\b\s*\*?\s*(?<name>${IDENT})`),
      kind: 'function',
      exported: true,
    },
    {
      pattern: new RegExp(String.raw`^export\s+(?:default\s+)?${DECLARE}(?:abstract\s+)?class\s+(?!extends\b|implements\b)(?<name>${IDENT})`),
      kind: 'class',
      exported: true,
    },
    {
      pattern: new RegExp(String.raw`^export\s+${DECLARE}(?<kw>interface|type|enum|const\s+enum|namespace|module)\s+(?<name>${IDENT})`),
      kind: { interface: 'interface', type: 'type', enum: 'enum', 'const enum': 'enum', namespace: 'module', module: 'module' },
      exported: true,
    },
    {
      pattern: new RegExp(String.raw`^export\s+${DECLARE}(?:const|let|var|using)\s+(?!enum\b)(?<name>${IDENT})`),
      kind: 'variable',
      exported: true,
    },
    {
      // `export default Name;` names the default export; any other anonymous form is `default`.
      pattern: new RegExp(
        String.raw`^export\s+default\s+(?!${DECLARE}(?:async\s+)?function\b\s*\*?\s*[A-Za-z_$]|${DECLARE}(?:abstract\s+)?class\s+(?!extends\b|implements\b)[A-Za-z_$])(?:(?<name>${IDENT})\s*;?[ \t]*$)?`,
      ),
      kind: 'variable',
      exported: true,
      fallbackName: 'default',
    },
    { pattern: new RegExp(String.raw`^export\s*=\s*(?<name>${IDENT})\s*;?[ \t]*$`), kind: 'variable', exported: true },
    { pattern: /^export\s+(?:type\s+)?\{(?<list>[^}=;(]{0,8000})\}/, kind: 'variable', exported: true, split: exportList },
    { pattern: new RegExp(String.raw`^export\s+\*\s+as\s+(?<name>${IDENT})`), kind: 'module', exported: true },
    { pattern: /^module\.exports\s*=\s*\{(?<list>[^}]{0,8000})\}/, kind: 'variable', exported: true, split: objectKeys },
    {
      pattern: new RegExp(String.raw`^module\.exports\s*=\s*(?:class\s+|(?:async\s+)?function\b\s*\*?\s*)?(?!require\b)(?<name>${IDENT})\s*[;({\n]`),
      kind: 'variable',
      exported: true,
    },
    { pattern: new RegExp(String.raw`^(?:module\.)?exports\.(?<name>${IDENT})\s*=`), kind: 'variable', exported: true },
    // Private top-level declarations.
    {
      pattern: new RegExp(String.raw`^${DECLARE}(?:async\s+)?function\b\s*\*?\s*(?<name>${IDENT})`),
      kind: 'function',
      exported: false,
    },
    {
      pattern: new RegExp(String.raw`^${DECLARE}(?:abstract\s+)?class\s+(?!extends\b|implements\b)(?<name>${IDENT})`),
      kind: 'class',
      exported: false,
    },
    {
      pattern: new RegExp(String.raw`^${DECLARE}(?<kw>interface|type|enum|const\s+enum|namespace)\s+(?<name>${IDENT})`),
      kind: { interface: 'interface', type: 'type', enum: 'enum', 'const enum': 'enum', namespace: 'module' },
      exported: false,
    },
    { pattern: new RegExp(String.raw`^${DECLARE}(?:const|let|var)\s+(?!enum\b)(?<name>${IDENT})`), kind: 'variable', exported: false },
  ],
  finish(found: Found[], text: string): Found[] {
    if (found.some((definition) => definition.exported) || MODULE_SYNTAX.test(text)) return found;
    return found.map((definition) => ({ ...definition, exported: true }));
  },
  imports,
  importWords: IMPORT_WORDS,
});
