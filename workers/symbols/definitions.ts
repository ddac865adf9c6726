import type { Definition, FileFacts, Found, Groups, Language, SymbolKind, SymbolRule } from './language.js';

/**
 * Runs one language's rules over a file's text and returns its definitions in source order, one
 * per name. A name defined twice (a TypeScript overload, a C prototype and its body, a private
 * function exported later by `export { f }`) keeps its first position and kind, and counts as
 * exported when any of its definitions is.
 */

const compiled = new WeakMap<SymbolRule, RegExp>();

function regexOf(rule: SymbolRule): RegExp {
  let regex = compiled.get(rule);
  if (!regex) {
    const flags = new Set([...rule.pattern.flags, 'g', 'm']);
    regex = new RegExp(rule.pattern.source, [...flags].join(''));
    compiled.set(rule, regex);
  }
  return regex;
}

function kindOf(rule: SymbolRule, groups: Groups): SymbolKind {
  if (typeof rule.kind === 'string') return rule.kind;
  return rule.kind[(groups.kw ?? '').replace(/\s+/g, ' ')] ?? 'type';
}

/** Identifiers; shell function names may also hold `-`, `.` and `:`, Ruby methods end in `?!=`. */
const VALID_NAME = /^[\p{L}_$][\p{L}\p{N}_$:.-]*[?!=]?$/u;

export function findDefinitions(language: Language, text: string, file: FileFacts): Definition[] {
  let found: Found[] = [];
  for (const rule of language.rules) {
    const regex = regexOf(rule);
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      if (match[0].length === 0) regex.lastIndex++;
      const groups: Groups = match.groups ?? {};
      if (rule.accept && !rule.accept(groups, file)) continue;
      const kind = kindOf(rule, groups);
      const names =
        groups.list !== undefined && rule.split ? rule.split(groups.list) : [groups.name ?? rule.fallbackName];
      for (const name of names) {
        if (name === undefined || !VALID_NAME.test(name)) continue;
        const exported = typeof rule.exported === 'boolean' ? rule.exported : rule.exported(groups, file, name);
        found.push({ name, kind, exported, at: match.index });
      }
    }
  }
  // Stable: names at one position (a list) keep their order, rules their table order.
  found.sort((a, b) => a.at - b.at);
  if (language.finish) found = language.finish(found, text);
  return merge(found);
}

function merge(found: Found[]): Definition[] {
  const byName = new Map<string, Definition>();
  for (const { name, kind, exported } of found) {
    const seen = byName.get(name);
    if (seen) seen.exported ||= exported;
    else byName.set(name, { name, kind, exported });
  }
  return [...byName.values()];
}
