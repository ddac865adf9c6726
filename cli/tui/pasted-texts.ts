import { groupThousands } from './spinner.js';
/** A paste with more lines than this is collapsed. */
export const COLLAPSE_LINES = 10;
/** A paste with more characters than this is collapsed. */
export const COLLAPSE_CHARS = 1_000;

const TOKEN = /\[pasted (?:[\d,]+ lines|[\d,]+ chars) #\d+\]/g;

export interface Span {
  start: number;
  end: number;
}

/**
 * Long pastes, collapsed: a bracketed paste of more than {@link COLLAPSE_LINES} lines or
 * {@link COLLAPSE_CHARS} characters stands in the prompt as one token, `[pasted 500 lines #1]`,
 * which the editor moves over and deletes whole; the message sent holds the full text in its
 * place. Tokens stay known for the whole run, so a message recalled from this run's history still
 * sends its pastes. Typing inside a token makes it plain text (sent as it reads).
 */
export class PastedTexts {
  private readonly texts = new Map<string, string>();
  private count = 0;

  /** Whether a paste this long is collapsed. */
  static long(text: string): boolean {
    return lineCount(text) > COLLAPSE_LINES || text.length > COLLAPSE_CHARS;
  }

  /** Keeps the text and returns the token that stands for it. */
  collapse(text: string): string {
    const lines = lineCount(text);
    const size = lines > 1 ? `${groupThousands(lines)} lines` : `${groupThousands(text.length)} chars`;
    const token = `[pasted ${size} #${++this.count}]`;
    this.texts.set(token, text);
    return token;
  }

  /** The full text a token stands for, if it is one. */
  text(token: string): string | undefined {
    return this.texts.get(token);
  }

  /** The token whose text is exactly `text`, if one is in `within`. */
  tokenFor(text: string, within: string): Span | undefined {
    return this.spans(within).find((span) => this.texts.get(within.slice(span.start, span.end)) === text);
  }

  /** `text` with every token replaced by the text it stands for. */
  expand(text: string): string {
    if (this.texts.size === 0) return text;
    return text.replace(TOKEN, (token) => this.texts.get(token) ?? token);
  }

  /** Where the known tokens are in `text`. */
  spans(text: string): Span[] {
    if (this.texts.size === 0) return [];
    const spans: Span[] = [];
    for (const match of text.matchAll(TOKEN)) if (this.texts.has(match[0])) spans.push({ start: match.index, end: match.index + match[0].length });
    return spans;
  }
}

/** Lines of a text, a final line break not starting another. */
function lineCount(text: string): number {
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? Math.max(1, breaks) : breaks + 1;
}
