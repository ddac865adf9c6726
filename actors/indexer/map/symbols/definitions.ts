import type { Definition, FileFacts, Found, Groups, Language, SymbolKind, SymbolRule } from './language.js';

// Runs one language's rules over a file's text and returns its definitions in source order, one
// per name. A name defined twice (a TypeScript overload, a C prototype and its body, a private
// function exported later by `export { f }`) keeps its first position and kind, and counts as
// exported when any of its definitions is.
//
// Speed: a language's rules are joined into one alternation (`(…)|(…)|…`, named groups turned
// into numbered ones), so a file is read once, not once per rule, and no `groups` object is built
// per match. At one position the first rule in table order wins, and a match's text is not
// searched again by the other rules.

interface Compiled {
  regex: RegExp;
  /**
   * Per rule: the number of the group that is set when it matched (its wrapping group, or a named
   * group it always sets: `mandatoryGroup`), and its named groups' names and numbers; and, for
   * a rule that needs no `groups` object (no `accept`, no `split`, `exported` fixed), the numbers
   * of its `name` and `kw` groups (-1 for none).
   */
  rules: { group: number; names: string[]; numbers: number[]; plain: boolean; name: number; kw: number }[];
}

const compiled = new WeakMap<Language, Compiled>();

/**
 * Rewrites a rule's source for the alternation: named groups become plain numbered ones (a
 * regex without named groups builds no `groups` object per match) and `\k<name>` becomes `\N`.
 * `first` is the number the rule's first group gets; `groups` counts the capturing groups (what
 * compiling the rule alone would say, without compiling it: a dozen regexes less per thread).
 */
export function renumber(source: string, first: number): { source: string; names: string[]; numbers: number[]; groups: number } {
  const names: string[] = [];
  const numbers: number[] = [];
  const byName = new Map<string, number>();
  let out = '';
  let group = first - 1;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') {
      const backReference = inClass ? null : /^\\k<([A-Za-z]\w*)>/.exec(source.slice(i));
      if (backReference) {
        out += `\\${byName.get(backReference[1]!)}`;
        i += backReference[0].length - 1;
      } else {
        out += char + (source[i + 1] ?? '');
        i++;
      }
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      out += char;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(') {
      const named = /^\(\?<([A-Za-z]\w*)>/.exec(source.slice(i));
      if (named) {
        group++;
        names.push(named[1]!);
        numbers.push(group);
        byName.set(named[1]!, group);
        out += '(';
        i += named[0].length - 1;
        continue;
      }
      if (source[i + 1] !== '?') group++;
    }
    out += char;
  }
  return { source: out, names, numbers, groups: group - first + 1 };
}

/**
 * `source` without its leading `^` when the whole rule is anchored there (`^…` with no `|` outside
 * a group or class, which would leave a branch unanchored); undefined otherwise.
 */
export function anchoredBody(source: string): string | undefined {
  if (!source.startsWith('^')) return undefined;
  let depth = 0;
  let inClass = false;
  for (let i = 1; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') i++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) return undefined;
  }
  return source.slice(1);
}

/**
 * The name of a named group that takes part in every match of the rule `source` (at no group's
 * depth, with no quantifier that lets it be skipped, in a rule without a top-level `|`), or
 * undefined. Such a group tells that its rule matched, so the rule needs no wrapping group: a
 * match's result array is a slot and a substring smaller per rule (a TypeScript match carried 33
 * slots, and tens of thousands are made cold at startup, in the small young generation).
 */
export function mandatoryGroup(source: string): string | undefined {
  let depth = 0;
  let inClass = false;
  let found: string | undefined;
  let open: string | undefined;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') i++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '|' && depth === 0) return undefined;
    else if (char === '(') {
      if (depth === 0) open = /^\(\?<([A-Za-z]\w*)>/.exec(source.slice(i))?.[1];
      depth++;
    } else if (char === ')') {
      depth--;
      if (depth === 0 && open !== undefined && found === undefined && !'?*{'.includes(source[i + 1] ?? ' ')) found = open;
      if (depth === 0) open = undefined;
    }
  }
  return found;
}

function compile(language: Language): Compiled {
  let entry = compiled.get(language);
  if (entry) return entry;
  const rules: Compiled['rules'] = [];
  const sources: string[] = [];
  const wrapped: boolean[] = [];
  let next = 1;
  for (const [index, rule] of language.rules.entries()) {
    if (/\\[1-9]/.test(rule.pattern.source)) throw new Error(`${language.name} rule ${index}: use \\k<name>, not numbered back-references`);
    if (rule.pattern.flags.replace(/[gm]/g, '') !== '') throw new Error(`${language.name} rule ${index}: flags other than g and m are not supported`);
    // A rule whose matches always set one of its named groups is told by that group; any other
    // gets a wrapping group of its own.
    const key = mandatoryGroup(rule.pattern.source);
    const first = key === undefined ? next + 1 : next;
    const { source, names, numbers, groups } = renumber(rule.pattern.source, first);
    const plain = !rule.accept && !rule.split && typeof rule.exported === 'boolean';
    const numberOf = (name: string) => (names.includes(name) ? numbers[names.indexOf(name)]! : -1);
    rules.push({ group: key === undefined ? next : numberOf(key), names, numbers, plain, name: numberOf('name'), kw: numberOf('kw') });
    sources.push(source);
    wrapped.push(key === undefined);
    next = first + groups;
  }
  // Every rule anchored at a line start (most languages): the `^` is tested once per position,
  // `^(?:(a)|(b)|…)`, not once per rule, `(^a)|(^b)|…`: the same matches and groups, and a
  // TypeScript file is read in ~half the time (its table has 15 rules).
  const bodies = sources.map(anchoredBody);
  const wrap = (body: string, index: number) => (wrapped[index] ? `(${body})` : `(?:${body})`);
  const alternation = bodies.every((body) => body !== undefined) ? `^(?:${bodies.map((body, index) => wrap(body!, index)).join('|')})` : sources.map(wrap).join('|');
  entry = { regex: new RegExp(alternation, 'gm'), rules };
  compiled.set(language, entry);
  return entry;
}

function kindOf(rule: SymbolRule, kw: string | undefined): SymbolKind {
  if (typeof rule.kind === 'string') return rule.kind;
  return rule.kind[(kw ?? '').replace(/\s+/g, ' ')] ?? 'type';
}

/** Identifiers; shell function names may also hold `-`, `.` and `:`, Ruby methods end in `?!=`. */
const VALID_NAME = /^[\p{L}_$][\p{L}\p{N}_$:.-]*[?!=]?$/u;

export function findDefinitions(language: Language, original: string, file: FileFacts): Definition[] {
  const { regex, rules: shapes } = compile(language);
  // Rules end lines with `$`, which stops before `\n` only: read CRLF files as LF.
  const lf = original.includes('\r') ? original.replace(/\r\n?/g, '\n') : original;
  const text = language.prepare ? language.prepare(lf) : lf;
  const rules = language.rules;
  let found: Found[] = [];
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    if (match[0].length === 0) regex.lastIndex++;
    let index = 0;
    while (index < rules.length && match[shapes[index]!.group] === undefined) index++;
    const rule = rules[index];
    if (!rule) continue;
    const shape = shapes[index]!;
    if (shape.plain) {
      // Most matches: one name, a fixed `exported`, no callback to hand a `groups` object to.
      const name = (shape.name === -1 ? undefined : match[shape.name]) ?? rule.fallbackName;
      if (name !== undefined && VALID_NAME.test(name)) found.push({ name, kind: kindOf(rule, shape.kw === -1 ? undefined : match[shape.kw]), exported: rule.exported as boolean, at: match.index });
      continue;
    }
    const groups: Groups = {};
    for (let k = 0; k < shape.names.length; k++) groups[shape.names[k]!] = match[shape.numbers[k]!];
    if (rule.accept && !rule.accept(groups, file)) continue;
    const kind = kindOf(rule, groups.kw);
    const names = groups.list !== undefined && rule.split ? rule.split(groups.list) : [groups.name ?? rule.fallbackName];
    for (let k = 0; k < names.length; k++) {
      const name = names[k];
      if (name === undefined || !VALID_NAME.test(name)) continue;
      const exported = typeof rule.exported === 'boolean' ? rule.exported : rule.exported(groups, file, name);
      found.push({ name, kind, exported, at: match.index });
    }
  }
  if (language.finish) found = language.finish(found, text);
  return merge(found);
}

/** Up to this many definitions, a file's names are told apart by a scan of those kept, not a `Map`. */
const FEW = 32;

function merge(found: Found[]): Definition[] {
  // Indexed loops, no iterators, no Map per file: thousands of files go through here cold, when
  // each iterator step and each Map table is one more allocation for the young generation.
  const merged: Definition[] = [];
  const byName = found.length > FEW ? new Map<string, Definition>() : undefined;
  for (let k = 0; k < found.length; k++) {
    const { name, kind, exported } = found[k]!;
    let seen: Definition | undefined;
    if (byName) seen = byName.get(name);
    else for (let m = 0; m < merged.length && seen === undefined; m++) if (merged[m]!.name === name) seen = merged[m];
    if (seen) seen.exported ||= exported;
    else {
      const definition: Definition = { name, kind, exported };
      merged.push(definition);
      byName?.set(name, definition);
    }
  }
  return merged;
}
