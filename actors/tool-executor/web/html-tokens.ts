import { decodeHTML, decodeHTMLAttribute } from 'entities';

// HTML's tokens, read the way a browser's tokenizer reads them, as open/text/close events with
// the elements a browser would close implicitly closed: enough tree for `fetch`'s converter,
// no DOM. Markup is found with indexOf and sticky regular expressions (native code from the
// first call) rather than a state machine called for every character: a bare pass over a 1 MB
// page costs ~80 ms of CPU in a fresh process (about half of it V8's optimising compiles) and
// ~7 ms warm, where htmlparser2's tokenizer took ~117 and ~11 ms; with the converter the first
// call went from ~300 to ~200 ms. Entities are decoded by `entities` (the WHATWG table).
//
// What a browser does that matters here: comments (`<!-- -->`, `--!>`), bogus comments (`<!…>`,
// `<?…>`, `</1>`, CDATA outside SVG), raw text (script, style, xmp, iframe, noembed, noframes),
// escapable raw text (title, textarea), plaintext, attributes quoted, unquoted or bare (the first
// of a name wins), a tag left open at the end of the page dropped. The implied closes and void
// elements follow htmlparser2's tables, which the converter was written against.

export type Attributes = Readonly<Record<string, string>>;

/** What the converter hears; names are lower case, text and attribute values decoded. */
export interface HtmlSink {
  open(name: string, attribs: Attributes): void;
  text(text: string): void;
  close(name: string): void;
}

/**
 * Elements nest at most this deep (Blink's parser limit): deeper ones are opened beside the
 * innermost instead of inside it, so a page of a million unclosed tags costs a bounded stack
 * and end tags a bounded search.
 */
const MAX_DEPTH = 512;

/** The attributes of a tag that has none (one object for all). */
export const NO_ATTRIBUTES: Attributes = Object.freeze({});

const VOID = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

const P = new Set(['p']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const FORM_CONTROLS = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const DD_DT = new Set(['dd', 'dt']);
const RT_RP = new Set(['rt', 'rp']);
const TABLE_SECTIONS = new Set(['thead', 'tbody']);
/** An element opening closes the open elements of these names at the top of the stack. */
const CLOSED_BY = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['a', new Set(['a'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DD_DT],
  ['dt', DD_DT],
  ['rt', RT_RP],
  ['rp', RT_RP],
  ['tbody', TABLE_SECTIONS],
  ['tfoot', TABLE_SECTIONS],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((name): [string, ReadonlySet<string>] => [name, HEADINGS]),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((name): [string, ReadonlySet<string>] => [name, FORM_CONTROLS]),
  ...['p', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section', 'table', 'ul'].map(
    (name): [string, ReadonlySet<string>] => [name, P],
  ),
]);

/** Elements whose content is text up to their end tag; true: entities are decoded in it. */
const RAW_TEXT = new Map<string, boolean>([
  ['script', false],
  ['style', false],
  ['xmp', false],
  ['iframe', false],
  ['noembed', false],
  ['noframes', false],
  ['title', true],
  ['textarea', true],
]);

/** `</name` then anything up to `>`: an end tag. */
const END_TAG = /<\/([A-Za-z][^\t\n\f\r />]*)[^>]*>/y;
/** One attribute: a name, and maybe `=` and a value (an open quote runs to the end of the page). */
const ATTRIBUTE = /([^\t\n\f\r />][^\t\n\f\r />=]*)(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)"?|'([^']*)'?|([^\t\n\f\r >]*)))?/y;

/**
 * Reads `html` into `sink`. `xhtml`: the page was served as application/xhtml+xml, which a browser
 * parses as XML, where `/>` closes any element (`<script src="a.js"/>` holds nothing).
 */
export function readHtml(html: string, sink: HtmlSink, xhtml = false): void {
  new Reader(html, sink, xhtml).read();
}

class Reader {
  /** Open elements, innermost last. */
  private readonly stack: string[] = [];
  /** Open `<svg>` and `<math>`: inside them `<image>` stays `image`. */
  private foreign = 0;

  constructor(
    private readonly html: string,
    private readonly sink: HtmlSink,
    private readonly xhtml: boolean,
  ) {}

  read(): void {
    const { html } = this;
    const length = html.length;
    /** Start of the text not yet given to the sink. */
    let text = 0;
    let at = 0;
    while (at < length) {
      const lt = html.indexOf('<', at);
      if (lt < 0) break;
      const next = html.charCodeAt(lt + 1);
      if (isLetter(next)) {
        const end = this.startTag(lt, text);
        if (end < 0) {
          // A tag left open at the end of the page is dropped.
          this.emitText(text, lt);
          text = length;
          break;
        }
        text = at = end;
      } else if (next === 47 /* / */) {
        this.emitText(text, lt);
        if (isLetter(html.charCodeAt(lt + 2))) {
          END_TAG.lastIndex = lt;
          const match = END_TAG.exec(html);
          if (!match) {
            text = length;
            break;
          }
          this.endTag(this.tagName(match[1]!));
          text = at = END_TAG.lastIndex;
        } else {
          // `</>` is nothing; `</1…>` a bogus comment.
          text = at = html.charCodeAt(lt + 2) === 62 ? lt + 3 : skipPast(html, '>', lt + 2);
        }
      } else if (next === 33 /* ! */) {
        this.emitText(text, lt);
        text = at = html.startsWith('<!--', lt) ? commentEnd(html, lt) : skipPast(html, '>', lt + 2);
      } else if (next === 63 /* ? */) {
        this.emitText(text, lt);
        text = at = skipPast(html, '>', lt + 2);
      } else at = lt + 1; // a `<` that starts nothing is text
    }
    this.emitText(text, length);
    while (this.stack.length > 0) this.pop();
  }

  /** Reads a start tag at `lt` (and a raw text element's content); returns where reading goes on, or -1. */
  private startTag(lt: number, text: number): number {
    const { html } = this;
    const length = html.length;
    let at = lt + 2;
    while (at < length && !endsName(html.charCodeAt(at))) at++;
    if (at >= length) return -1;
    const name = this.tagName(html.slice(lt + 1, at));
    const tag = html.charCodeAt(at) === 62 /* > */ ? { end: at, attribs: NO_ATTRIBUTES, selfClosing: false } : this.attributes(at);
    if (!tag) return -1;
    this.emitText(text, lt);
    const after = tag.end + 1;
    // As in a browser, `/>` closes only SVG and MathML elements (any element in XHTML): in HTML,
    // `<div hidden/>text` hides the text.
    this.open(name, tag.attribs, tag.selfClosing && (this.xhtml || this.foreign > 0 || name === 'svg' || name === 'math'));
    const stillOpen = this.stack[this.stack.length - 1] === name;
    if (name === 'plaintext' && stillOpen) {
      this.emitText(after, length, false);
      return length;
    }
    const decode = RAW_TEXT.get(name);
    if (decode === undefined || this.foreign > 0 || !stillOpen) return after;
    // Raw text: everything up to `</name` (any case) followed by a space, `/` or `>`.
    const close = rawTextEnd(html, name, after);
    this.emitText(after, close, decode);
    return close;
  }

  /** Reads a start tag's attributes from `at`, up to its `>` (`end`); undefined when the page ends first. */
  private attributes(at: number): { end: number; attribs: Attributes; selfClosing: boolean } | undefined {
    const { html } = this;
    const length = html.length;
    const attribs: Record<string, string> = {};
    while (at < length) {
      const code = html.charCodeAt(at);
      if (code === 62 /* > */) return { end: at, attribs, selfClosing: false };
      // Between attributes: spaces, and slashes; `/>` ends the tag as self-closing.
      if (code === 47 /* / */ || isSpace(code)) {
        if (code === 47 && html.charCodeAt(at + 1) === 62) return { end: at + 1, attribs, selfClosing: true };
        at++;
        continue;
      }
      ATTRIBUTE.lastIndex = at;
      const match = ATTRIBUTE.exec(html)!;
      at = ATTRIBUTE.lastIndex;
      const key = lower(match[1]!);
      if (!Object.hasOwn(attribs, key)) {
        const value = match[2] ?? match[3] ?? match[4] ?? '';
        attribs[key] = value.includes('&') ? decodeHTMLAttribute(value) : value;
      }
    }
    return undefined;
  }

  private tagName(raw: string): string {
    const name = lower(raw);
    return name === 'image' && this.foreign === 0 ? 'img' : name;
  }

  private open(name: string, attribs: Attributes, selfClosing: boolean): void {
    const { stack } = this;
    // The spec ignores a form inside a form.
    if (name === 'form' && stack.includes('form')) return;
    const closes = CLOSED_BY.get(name);
    if (closes) while (stack.length > 0 && closes.has(stack[stack.length - 1]!)) this.pop();
    if (stack.length >= MAX_DEPTH) this.pop();
    stack.push(name);
    if (name === 'svg' || name === 'math') this.foreign++;
    this.sink.open(name, attribs);
    // Void elements close at once (the sink hears open and close from one place each).
    if (selfClosing || VOID.has(name)) this.pop();
  }

  private endTag(name: string): void {
    if (VOID.has(name)) {
      // `</br>` is a line break; other void end tags are nothing.
      if (name === 'br') this.open('br', NO_ATTRIBUTES, true);
      return;
    }
    const index = this.stack.lastIndexOf(name);
    if (index >= 0) {
      while (this.stack.length > index) this.pop();
    } else if (name === 'p') {
      // `</p>` with no paragraph open is an empty paragraph.
      this.open('p', NO_ATTRIBUTES, true);
    }
  }

  private pop(): void {
    const name = this.stack.pop()!;
    if (name === 'svg' || name === 'math') this.foreign--;
    this.sink.close(name);
  }

  private emitText(from: number, to: number, decode = true): void {
    if (to <= from) return;
    const raw = this.html.slice(from, to);
    this.sink.text(decode && raw.indexOf('&') >= 0 ? decodeHTML(raw) : raw);
  }
}

/** Whitespace as HTML counts it (not \v). */
function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13 || code === 12;
}

/** Ends a tag name: whitespace, `/`, `>`. */
function endsName(code: number): boolean {
  return code === 62 || code === 47 || isSpace(code);
}

function isLetter(code: number): boolean {
  return (code | 32) >= 97 && (code | 32) <= 122;
}

function lower(name: string): string {
  // Tag and attribute names are mostly lower case already; toLowerCase would copy them.
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code >= 65 && code <= 90) return name.toLowerCase();
  }
  return name;
}

/** The position after the next `mark` from `from`, or the page's end. */
function skipPast(html: string, mark: string, from: number): number {
  const at = html.indexOf(mark, from);
  return at < 0 ? html.length : at + mark.length;
}

/** `-->` or `--!>`: a comment's end. */
const COMMENT_END = /--!?>/g;

/** The end of the comment at `lt`: after `-->` or `--!>` (`<!-->` and `<!--->` are empty comments). */
function commentEnd(html: string, lt: number): number {
  if (html.startsWith('>', lt + 4)) return lt + 5;
  if (html.startsWith('->', lt + 4)) return lt + 6;
  COMMENT_END.lastIndex = lt + 4;
  return COMMENT_END.exec(html) ? COMMENT_END.lastIndex : html.length;
}

const rawEnds = new Map<string, RegExp>();

/** Where the raw text of `name` from `from` ends: its end tag, or the page's end. */
function rawTextEnd(html: string, name: string, from: number): number {
  let end = rawEnds.get(name);
  if (!end) rawEnds.set(name, (end = new RegExp(`</${name}[\\t\\n\\f\\r />]`, 'gi')));
  end.lastIndex = from;
  const match = end.exec(html);
  return match ? match.index : html.length;
}
