import { defineLanguage, type Found } from './language.js';

/**
 * Python: top-level `def`/`async def`, `class` and UPPER_CASE constants. A leading underscore
 * makes a name private; when the module has `__all__`, exactly the names it lists are exported
 * (names it lists without defining them, the usual re-exports of an `__init__.py`, are added).
 */

const notUnderscored = (groups: Record<string, string | undefined>): boolean => !groups.name!.startsWith('_');

const ALL = /^__all__\s*(?::[^=\n]*)?\+?=\s*[[(](?<list>[^\])]{0,20000})[\])]/gm;

function namesInAll(text: string): { names: string[]; at: number } | undefined {
  let first: number | undefined;
  const names: string[] = [];
  ALL.lastIndex = 0;
  for (let match = ALL.exec(text); match !== null; match = ALL.exec(text)) {
    first ??= match.index;
    for (const quoted of match.groups!.list!.matchAll(/(['"])([A-Za-z_]\w*)\1/g)) names.push(quoted[2]!);
  }
  return first === undefined ? undefined : { names, at: first };
}

/** `from M import a, b` (also parenthesised over lines) and `import a.b, c as d`, at any indent. */
const IMPORT = /^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]*(\([^)]*\)|[^\n#;]*)|import[ \t]+([^\n#;]+))/gm;

/** `../`-style prefix for `level` leading dots: `.` is the file's own folder. */
const relative = (level: number): string => (level <= 1 ? './' : '../'.repeat(level - 1));

/** Names of an import list: `a as b` → `a`; `*` and line continuations dropped. */
const importNames = (list: string): string[] =>
  list
    .replace(/[()\\]/g, ' ')
    .split(',')
    .map((part) => part.trim().split(/\s+/)[0]!)
    .filter((name) => /^[A-Za-z_][\w.]*$/.test(name));

function imports(text: string): string[] {
  const found: string[] = [];
  IMPORT.lastIndex = 0;
  for (let match = IMPORT.exec(text); match !== null; match = IMPORT.exec(text)) {
    if (match[4] !== undefined) {
      // `import a.b.c`: the longest of a/b/c, a/b, a that is a module.
      for (const name of importNames(match[4])) {
        const parts = name.split('.');
        found.push(parts.map((_, k) => parts.slice(0, parts.length - k).join('/')).join('|'));
      }
      continue;
    }
    const level = match[1]!.length;
    const module = match[2]!.split('.').filter(Boolean).join('/');
    if (level === 0 && module === '') continue;
    const base = level === 0 ? module : `${relative(level)}${module}`;
    // `from M import n`: the submodule M/n when there is one, else M itself (`import *`: M).
    const names = importNames(match[3]!);
    if (names.length === 0) found.push(base);
    for (const name of names) found.push(`${base.endsWith('/') ? base : `${base}/`}${name}|${base}`);
  }
  return found;
}

export default defineLanguage({
  name: 'python',
  extensions: ['.py', '.pyi'],
  rules: [
    { pattern: /^(?:async[ \t]+)?def[ \t]+(?<name>[A-Za-z_]\w*)/, kind: 'function', exported: notUnderscored },
    { pattern: /^class[ \t]+(?<name>[A-Za-z_]\w*)/, kind: 'class', exported: notUnderscored },
    { pattern: /^(?<name>[A-Z][A-Z0-9_]*)[ \t]*(?::[^=\n]*)?=(?!=)/, kind: 'constant', exported: true },
  ],
  finish(found: Found[], text: string): Found[] {
    const all = namesInAll(text);
    if (!all) return found;
    const listed = new Set(all.names);
    const defined = new Set(found.map((definition) => definition.name));
    const added: Found[] = all.names
      .filter((name) => !defined.has(name))
      .map((name) => ({ name, kind: 'variable', exported: true, at: all.at }));
    return [...found.map((definition) => ({ ...definition, exported: listed.has(definition.name) })), ...added].sort((a, b) => a.at - b.at);
  },
  imports,
});
