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
});
