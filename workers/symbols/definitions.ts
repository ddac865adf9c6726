import type { Definition, FileFacts, Found, Groups, Language, SymbolKind, SymbolRule } from './language.js';

/**
 * Runs one language's rules over a file's text and returns its definitions in source order, one
 * per name. A name defined twice (a TypeScript overload, a C prototype and its body, a private
 * function exported later by `export { f }`) keeps its first position and kind, and counts as
 * exported when any of its definitions is.
 *
 * Speed: a language's rules are joined into one alternation (`(?<r0>…)|(?<r1>…)|…`, each rule's
 * named groups suffixed with its index), so a file is read once, not once per rule — four to
 * seven times faster on real code. At one position the first rule in table order wins, and a
 * match's text is not searched again by the other rules.
 */

interface Compiled {
  regex: RegExp;
  /** Per rule, its group names without the suffix. */
  groups: string[][];
}

const compiled = new WeakMap<Language, Compiled>();

const GROUP = /\(\?<([A-Za-z]\w*)>/g;

function compile(language: Language): Compiled {
  let entry = compiled.get(language);
  if (entry) return entry;
  const groups: string[][] = [];
  const sources = language.rules.map((rule, index) => {
    if (/\\[1-9]/.test(rule.pattern.source)) throw new Error(`${language.name} rule ${index}: use \\k<name>, not numbered back-references`);
    if (rule.pattern.flags.replace(/[gm]/g, '') !== '') throw new Error(`${language.name} rule ${index}: flags other than g and m are not supported`);
    groups.push([...rule.pattern.source.matchAll(GROUP)].map((match) => match[1]!));
    const source = rule.pattern.source.replace(GROUP, `(?<$1_${index}>`).replace(/\\k<([A-Za-z]\w*)>/g, `\\k<$1_${index}>`);
    return `(?<r${index}>${source})`;
  });
  entry = { regex: new RegExp(sources.join('|'), 'gm'), groups };
  compiled.set(language, entry);
  return entry;
}

function kindOf(rule: SymbolRule, groups: Groups): SymbolKind {
  if (typeof rule.kind === 'string') return rule.kind;
  return rule.kind[(groups.kw ?? '').replace(/\s+/g, ' ')] ?? 'type';
}

/** Identifiers; shell function names may also hold `-`, `.` and `:`, Ruby methods end in `?!=`. */
const VALID_NAME = /^[\p{L}_$][\p{L}\p{N}_$:.-]*[?!=]?$/u;

export function findDefinitions(language: Language, text: string, file: FileFacts): Definition[] {
  const { regex, groups: groupNames } = compile(language);
  const rules = language.rules;
  let found: Found[] = [];
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    if (match[0].length === 0) regex.lastIndex++;
    const all = match.groups!;
    let index = 0;
    while (index < rules.length && all[`r${index}`] === undefined) index++;
    const rule = rules[index];
    if (!rule) continue;
    const groups: Groups = {};
    for (const name of groupNames[index]!) groups[name] = all[`${name}_${index}`];
    if (rule.accept && !rule.accept(groups, file)) continue;
    const kind = kindOf(rule, groups);
    const names = groups.list !== undefined && rule.split ? rule.split(groups.list) : [groups.name ?? rule.fallbackName];
    for (const name of names) {
      if (name === undefined || !VALID_NAME.test(name)) continue;
      const exported = typeof rule.exported === 'boolean' ? rule.exported : rule.exported(groups, file, name);
      found.push({ name, kind, exported, at: match.index });
    }
  }
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
