import { errorClass } from '../../runtime/errors.js';
import { withoutComment } from '../line-comment.js';

// The front matter of a markdown file (custom commands, skills): a first line `---`, then
// `key: value` lines, then `---`; the rest is the body. Values are strings: plain, in single or
// double quotes, a `|` or `>` block, or a `- item` list (joined with ", "); a `#` after a space
// starts a comment outside quotes. This is the part of YAML such files use (Claude Code's commands
// and skills among them); anything else is an error of one line that names the line, so the
// caller can skip that file and load the rest.

export interface FrontMatter {
  /** Keys as written (lower-cased), values unquoted. Empty when the file has no front matter. */
  fields: Record<string, string>;
  body: string;
}

/** Front matter reika cannot read. */
export class FrontMatterError extends errorClass('REIKA_ERR_FRONT_MATTER') {}

export function parseFrontMatter(text: string): FrontMatter {
  const source = text.replace(/^\uFEFF/, '');
  const lines = source.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { fields: {}, body: source };
  const close = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  if (close < 0) throw new FrontMatterError('the front matter has no closing "---" line');
  const fields: Record<string, string> = {};
  for (let i = 1; i < close; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = /^([A-Za-z][\w-]*)\s*:(?:\s+(.*))?$/.exec(line.trimEnd());
    if (!match) throw new FrontMatterError(`front matter line ${i + 1} is not "key: value": ${JSON.stringify(line.slice(0, 60))}`);
    const key = match[1]!.toLowerCase();
    if (key in fields) throw new FrontMatterError(`front matter line ${i + 1}: "${key}" is given twice`);
    const value = match[2]?.trim() ?? '';
    // What follows indented belongs to this key: a block (`|`, `>`) or a list (`- item`).
    let next = i + 1;
    while (next < close && (lines[next]!.trim() === '' || /^\s/.test(lines[next]!))) next++;
    const nested = lines.slice(i + 1, next);
    while (nested.length > 0 && nested.at(-1)!.trim() === '') nested.pop();
    if (/^[|>][-+]?$/.test(value)) {
      fields[key] = block(nested, value[0] === '|');
    } else if (nested.length > 0) {
      if (value !== '') throw new FrontMatterError(`front matter line ${i + 2}: an indented line after "${key}: ${value.slice(0, 30)}"`);
      const items = nested.filter((l) => l.trim() !== '').map((l) => /^\s+-\s+(.*)$/.exec(l)?.[1]);
      if (items.some((item) => item === undefined)) throw new FrontMatterError(`front matter line ${i + 2}: "${key}" is followed by indented lines that are not a "- item" list`);
      fields[key] = items.map((item, n) => scalar(item!, i + 2 + n)).join(', ');
    } else {
      fields[key] = scalar(value, i + 1);
    }
    i = next - 1;
  }
  return { fields, body: lines.slice(close + 1).join('\n') };
}

/** A `|` block keeps its lines, a `>` block folds them into one; the common indent is removed. */
function block(lines: string[], literal: boolean): string {
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => /^\s*/.exec(l)![0].length));
  const text = lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
  return literal ? text.join('\n') : text.map((l) => l.trim()).join(' ').replace(/\s+/g, ' ').trim();
}

function scalar(raw: string, line: number): string {
  const value = raw.trim();
  const quote = value[0];
  if (quote === '"' || quote === "'") {
    const end = closingQuote(value, quote);
    if (end < 0) throw new FrontMatterError(`front matter line ${line}: the ${quote === '"' ? 'double' : 'single'} quote is not closed`);
    const rest = value.slice(end + 1).trim();
    if (rest !== '' && !rest.startsWith('#')) throw new FrontMatterError(`front matter line ${line}: text after the closing quote`);
    const inner = value.slice(1, end);
    // YAML's escapes: `\"`, `\\`, `\n`, `\t` in double quotes, `''` in single ones.
    return quote === '"' ? inner.replace(/\\(["\\nt])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c)) : inner.replace(/''/g, "'");
  }
  // Anything else is kept as written (`[a, b]` too: reika reads none of those keys as a list).
  return withoutComment(value);
}

/** Where the quote opened at 0 closes (`\"` and `''` do not close it), or -1. */
function closingQuote(value: string, quote: string): number {
  for (let i = 1; i < value.length; i++) {
    if (quote === '"' && value[i] === '\\') i++;
    else if (value[i] === quote) {
      if (quote === "'" && value[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}
