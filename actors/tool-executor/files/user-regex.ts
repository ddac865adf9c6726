import { RE2JS, RE2JSException } from 're2js';
import { ToolError } from '../tools/tool-error.js';

/**
 * A model's regular expression, matched in linear time. JavaScript's engine backtracks, so a
 * pattern like `(a+)+$` could hold the executor for minutes; re2js (a pure-JS port of RE2) cannot.
 * JavaScript syntax is translated (named groups, `\u` escapes, `[^]`); what RE2 lacks by design
 * (lookaround, backreferences) is refused with one line saying what to write instead. A literal
 * that every match must contain is looked for first with the engine's own string search, so the
 * files and lines without it cost no RE2 pass.
 */
export interface UserRegex {
  /** False only when no line of `text` can match (the literal is missing, or RE2 finds nothing). */
  mayMatch(text: string): boolean;
  /** True when the pattern matches somewhere in `line`. */
  test(line: string): boolean;
}

export function compileUserRegex(pattern: string, ignoreCase: boolean): UserRegex {
  const unsupported = jsOnlySyntax(pattern);
  if (unsupported) throw new ToolError('INVALID_REGEX', `grep: "${pattern}" uses ${unsupported}`);
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(RE2JS.translateRegExp(pattern), ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    const message = error instanceof RE2JSException ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    throw new ToolError('INVALID_REGEX', `grep: "${pattern}" is not a valid regular expression: ${message}`);
  }
  const literal = requiredLiteral(pattern);
  const contains = !literal
    ? () => true
    : ignoreCase
      ? ((finder) => (text: string) => finder.test(text))(new RegExp(literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'iu'))
      : (text: string) => text.includes(literal);
  // Without anchors a match in a line is a match in the whole text, so one RE2 pass rejects a file.
  const anchored = /[\^$]/.test(pattern);
  return {
    mayMatch: (text) => contains(text) && (anchored || re2.test(text)),
    test: (line) => contains(line) && re2.test(line),
  };
}

/**
 * What of JavaScript's syntax RE2 does not have, as "lookahead `(?=`; RE2 … rewrite …", or
 * undefined. Escapes and character classes are skipped, so `\(?=` or `[(?=]` are fine.
 */
function jsOnlySyntax(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return `a backreference \`\\${next}\`, which RE2 (grep's linear-time engine) does not have: write the repeated text out, or match less and read the lines`;
      if (!inClass && next === 'k' && pattern[i + 2] === '<') return 'a named backreference `\\k<…>`, which RE2 (grep\'s linear-time engine) does not have: write the repeated text out, or match less and read the lines';
      i++;
    } else if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      inClass = true;
      if (pattern[i + 1] === ']') i++;
    } else if (char === '(' && pattern[i + 1] === '?') {
      const kind = pattern.slice(i + 2, i + 4);
      const name = kind.startsWith('=') ? 'lookahead `(?=`' : kind.startsWith('!') ? 'negative lookahead `(?!`' : kind === '<=' ? 'lookbehind `(?<=`' : kind === '<!' ? 'negative lookbehind `(?<!`' : undefined;
      if (name) return `${name}, which RE2 (grep's linear-time engine) does not have: match the surrounding text as part of the pattern instead (e.g. "foo(?=bar)" → "foobar")`;
    }
  }
  return undefined;
}

/**
 * The longest run of plain characters that every match contains: outside groups, classes and
 * alternation, and not made optional by `?`, `*` or `{0,…}`. Empty when there is none (then
 * every line goes to RE2).
 */
export function requiredLiteral(pattern: string): string {
  // Inline flags (`(?i)`) change what a literal means; alternation makes none required.
  if (/\(\?[a-zA-Z]/.test(pattern) || hasTopLevelAlternation(pattern)) return '';
  let best = '';
  let run = '';
  const end = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    let literal: string | undefined;
    let width = 1;
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[.*+?^${}()|[\]\\/\-]/.test(next)) literal = next;
      width = 2;
    } else if (!/[.*+?^${}()|[\]]/.test(char)) {
      literal = char;
    }
    const after = pattern[i + width] ?? '';
    const optional = after === '?' || after === '*' || (after === '{' && /^\{0[,}]/.test(pattern.slice(i + width)));
    const repeated = after === '+' || after === '{';
    if (literal === undefined || optional) {
      end();
      if (char === '(' || char === '[') i = skipGroup(pattern, i) - 1;
      else i += width - 1;
      continue;
    }
    run += literal;
    i += width - 1;
    // `ab+` requires "ab" but what follows the repeated b is not adjacent to it.
    if (repeated) end();
  }
  end();
  return best;
}

function hasTopLevelAlternation(pattern: string): boolean {
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') i++;
    else if (char === '[') i = skipGroup(pattern, i) - 1;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) return true;
  }
  return false;
}

/** The index just past the group or class that starts at `start`, escapes and nesting respected. */
function skipGroup(pattern: string, start: number): number {
  if (pattern[start] === '[') {
    let i = start + 1;
    if (pattern[i] === '^') i++;
    if (pattern[i] === ']') i++;
    for (; i < pattern.length; i++) {
      if (pattern[i] === '\\') i++;
      else if (pattern[i] === ']') return i + 1;
    }
    return pattern.length;
  }
  let depth = 0;
  for (let i = start; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') i++;
    else if (char === '[') i = skipGroup(pattern, i) - 1;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return i + 1;
  }
  return pattern.length;
}
