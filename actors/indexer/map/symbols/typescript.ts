import { commaParts, defineLanguage, IDENT, type Found } from './language.js';

/**
 * TypeScript and JavaScript (ES modules and CommonJS). Exported: `export` declarations (also
 * `export default`, whose anonymous form is named `default`), export lists and re-exports
 * (`export { a as b } from`, `export * as ns from`), `export =`, `module.exports` and `exports.x`.
 * Top-level declarations without `export` are private. A script (no import, export, require or
 * module.exports at all) has only globals, so its top-level declarations count as exported.
 */

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

function imports(text: string): string[] {
  const found: string[] = [];
  IMPORT.lastIndex = 0;
  for (let match = IMPORT.exec(text); match !== null; match = IMPORT.exec(text)) {
    // `./x?raw`, `./x.js` (TypeScript's ESM spelling of `./x.ts`): the path without the suffixes.
    const specifier = match[2]!.replace(/[?#].*$/, '').replace(/\.(?:[cm]?[jt]sx?)$/, '');
    if (specifier !== '' && !/\s/.test(specifier)) found.push(specifier);
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
});
