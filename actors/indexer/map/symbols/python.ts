import { defineLanguage, type Found } from './language.js';

// Python: top-level `def`/`async def`, `class` and UPPER_CASE constants. A leading underscore
// makes a name private; when the module has `__all__`, exactly the names it lists are exported
// (names it lists without defining them, the usual re-exports of an `__init__.py`, are added).

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
/** IMPORT at one line start. */
const IMPORT_AT = new RegExp(IMPORT.source, 'my');
const IMPORT_WORDS = ['from', 'import'];

/** `../`-style prefix for `level` leading dots: `.` is the file's own folder. */
const relative = (level: number): string => (level <= 1 ? './' : '../'.repeat(level - 1));

/**
 * The names of an import list, each part's first word (`a as b` → `a`; parentheses and line
 * continuations count as spaces), where that word is a dotted name (`*` is not).
 */
const IMPORT_NAME = /(?:^|,)[\s()\\]*([A-Za-z_][\w.]*)(?=[\s()\\,]|$)/g;

/** `a.b.c` → `a/b/c`, empty parts dropped. */
function slashed(dotted: string): string {
  if (!dotted.includes('.')) return dotted;
  if (dotted.startsWith('.') || dotted.endsWith('.') || dotted.includes('..')) return dotted.split('.').filter(Boolean).join('/');
  return dotted.replaceAll('.', '/');
}

/** `a.b.c` → `a/b/c|a/b|a`: the longest of them that is a module. */
function longestFirst(dotted: string): string {
  if (!dotted.includes('.')) return dotted;
  const parts = dotted.split('.');
  return parts.map((_, k) => parts.slice(0, parts.length - k).join('/')).join('|');
}

/** Whether offset `at` starts a line (`^` with the `m` flag). */
function lineStart(text: string, at: number): boolean {
  if (at === 0) return true;
  const before = text.charCodeAt(at - 1);
  return before === 10 || before === 13 || before === 0x2028 || before === 0x2029;
}

/** The specifiers of one IMPORT match, added to `found`. */
function addImport(found: string[], match: RegExpExecArray): void {
  if (match[4] !== undefined) {
    IMPORT_NAME.lastIndex = 0;
    for (let name = IMPORT_NAME.exec(match[4]); name !== null; name = IMPORT_NAME.exec(match[4])) found.push(longestFirst(name[1]!));
    return;
  }
  const level = match[1]!.length;
  const module = slashed(match[2]!);
  if (level === 0 && module === '') return;
  const base = level === 0 ? module : `${relative(level)}${module}`;
  // `from M import n`: the submodule M/n when there is one, else M itself (`import *`: M). One
  // group for the statement, `M\tn\tm` (see `Language.imports`): a from-import often names ten
  // things, and ten specifiers cost ten strings here and ten lookups in the ranking.
  let group = base;
  const list = match[3]!;
  IMPORT_NAME.lastIndex = 0;
  for (let name = IMPORT_NAME.exec(list); name !== null; name = IMPORT_NAME.exec(list)) group += `\t${name[1]!}`;
  found.push(group);
}

function imports(text: string, at?: readonly number[]): string[] {
  const found: string[] = [];
  if (at === undefined) {
    IMPORT.lastIndex = 0;
    for (let match = IMPORT.exec(text); match !== null; match = IMPORT.exec(text)) addImport(found, match);
    return found;
  }
  // The same matches as the search above: the keywords' lines in order, none inside the last match.
  let end = 0;
  for (let k = 0; k < at.length; k++) {
    let line = at[k]!;
    while (line > 0 && (text.charCodeAt(line - 1) === 32 || text.charCodeAt(line - 1) === 9)) line--;
    if (line < end || !lineStart(text, line)) continue;
    IMPORT_AT.lastIndex = line;
    const match = IMPORT_AT.exec(text);
    if (match === null) continue;
    end = IMPORT_AT.lastIndex;
    addImport(found, match);
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
  importWords: IMPORT_WORDS,
});
