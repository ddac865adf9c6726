import { longestBacktickRun } from '../../backticks.js';
import { type Attributes, type HtmlSink, NO_ATTRIBUTES, readHtml } from './html-tokens.js';

// A web page's main content as Markdown, written as html-tokens.ts reads the page (no DOM is
// built: a 1 MB page converts in ~50 ms of CPU warm, ~200 ms the first call in a process). What
// a reader needs stays — headings, paragraphs, links (resolved against the page's URL), lists,
// code blocks with their language, quotes, tables, emphasis, images' alt text — and what only a
// browser needs goes: scripts, styles, forms, navigation, page headers and footers, hidden
// elements.
//
// Main content: the page's `<main>` (or `role="main"`), else its one `<article>`, when it holds
// a fair share of the page's text; otherwise the whole body without the parts dropped above.

export interface MarkdownPage {
  /** The `<title>`, whitespace collapsed; undefined when the page has none. */
  title?: string;
  markdown: string;
}

/** Elements whose whole subtree is dropped. */
const DROP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed', 'form', 'button', 'select', 'input', 'textarea', 'dialog', 'nav', 'aside', 'head', 'map', 'audio', 'video', 'picture', 'source']);
/**
 * Dropped outside the content only (main, article, section): the page's banner and footer go, a
 * section's or an article's own header, which holds its title, stays (as ARIA maps them).
 */
const DROP_OUTSIDE_CONTENT = new Set(['header', 'footer']);
const DROP_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'menu', 'menubar', 'alert']);
/** Blocks set apart by a blank line. */
const PARAGRAPH = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'pre', 'blockquote', 'table', 'hr', 'dl', 'figure', 'details']);
/** Blocks that start a new line. */
const LINE = new Set(['div', 'section', 'article', 'main', 'header', 'footer', 'li', 'tr', 'dt', 'dd', 'figcaption', 'summary', 'address', 'center', 'body']);
/**
 * Lists and quotes nested deeper than this indent no further: a page nesting thousands of them
 * would otherwise write a prefix as long as the nesting on every line (quadratic output).
 */
const MAX_INDENT = 10;
/** Tables wider than this pad only their header row. */
const MAX_PADDED = 64;
/** A region must hold at least this share of the body's text to be taken as the main content. */
const MAIN_SHARE = 0.25;

/** A candidate for the main content: its span in the output and the text it holds. */
interface Region {
  from: number;
  to: number;
  /** Characters of text inside (set when it closes). */
  chars: number;
}

/** What an element undoes or finishes when it closes. */
const enum Kind {
  None,
  /** Inside a dropped subtree. */
  Drop,
  Heading,
  Pre,
  Quote,
  List,
  Item,
  /** A link: `mark` is its target; `piece` the `[`. */
  Link,
  /** A link within the page: its text from `piece` is kept unless it is only a heading's ¶ or §. */
  Anchor,
  /** Emphasis: `mark` is the marker; `piece` the opening one. */
  Wrap,
  /** Inline code: `piece` the opening backtick. */
  Code,
  /** A superscript or subscript: `mark` is `^` or `_`; `piece` the mark. */
  Script,
  Table,
  /** A table cell: its text is `out` from `at`. */
  Cell,
  /** A block naming its code's language (Sphinx's `highlight-python`): `mark` is the one before. */
  Highlight,
}

const enum Content {
  None,
  /** Inside main, article or section: a header or footer there is kept. */
  Content,
  /** The first main: its output span is the main content candidate. */
  Main,
  /** The first article likewise. */
  Article,
}

/** A table being read: rows of cells, each cell its text with `<br>` between its lines. */
interface TableState {
  rows: string[][];
  row: string[];
  /** The stack's depth at the table's start. */
  depth: number;
  /** Where the open cell's text starts in `out`. */
  cellAt: number;
  /** Tables open inside its cells: their rows are lines of the cell, their cells words of it. */
  nested: number;
  /** It held a table: a layout table, written as blocks, not as a Markdown table. */
  layout: boolean;
}

/** An open element. Every frame has the same fields, set in the same order (one hidden class). */
class Frame {
  kind = Kind.None;
  content = Content.None;
  /** A link's target, an emphasis marker, or the line prefix to restore. */
  mark = '';
  /** The index in `out` of an opening mark. */
  piece = -1;

  constructor(
    readonly name: string,
    /** Where this element's output starts in `out` (cells look back to it). */
    readonly at: number,
  ) {}
}

/** `xhtml`: the page came as application/xhtml+xml (see readHtml). */
export function htmlToMarkdown(html: string, pageUrl: string, xhtml = false): MarkdownPage {
  return new Converter(pageUrl).convert(html, xhtml);
}

class Converter implements HtmlSink {
  /** Output pieces; a piece may be blanked later (an empty link's `[`). */
  private out: string[] = [];
  private readonly stack: Frame[] = [];
  /** > 0 inside a dropped subtree: nothing is written. */
  private dropDepth = 0;
  /** > 0 inside `<pre>`: text is written as it is. */
  private preDepth = 0;
  /** Inside main, article or section: a header or footer there is kept. */
  private contentDepth = 0;
  private titleText: string[] | undefined;
  private title: string | undefined;
  /** Line prefix of the open blockquotes and list items. */
  private prefix = '';
  /** Ordered-list counters of the open lists (undefined: unordered). */
  private readonly lists: (number | undefined)[] = [];
  /** The output ends at a line start (only the prefix is owed). */
  private atLineStart = true;
  /** Blank lines owed before the next text: 0 none, 1 a newline, 2 a blank line. */
  private owed = 0;
  private spaceOwed = false;
  /** A list item's or description's marker is the last thing written: a paragraph there starts on its line. */
  private afterMarker = false;
  /** The language the enclosing blocks name for code blocks without their own. */
  private codeLanguage = '';
  /** Open quotes and inline code spans: code inside code is just text. */
  private quotes = 0;
  private codes = 0;
  /** The outermost table being read: its rows of cells. */
  private table: TableState | undefined;
  /**
   * A block (paragraph, list item, line break…) ended inside a table cell: the cell's next text
   * starts a line (`<br>`, which Markdown tables allow), not the cell's first text.
   */
  private breakOwed = false;
  /** Output span of the main content candidates, once closed. */
  private main: Region | undefined;
  private article: (Region & { count: number }) | undefined;
  /** Characters of text written so far (regions compare theirs with it). */
  private chars = 0;
  private base: URL | undefined;
  /** The opening fence of the code block being read (its inner `<code>` may name the language). */
  private pendingFence: number | undefined;
  private preFresh = false;
  /** In a code block, a <code> has just closed (no text since). */
  private codeEnded = false;

  constructor(pageUrl: string) {
    try {
      this.base = new URL(pageUrl);
    } catch {
      this.base = undefined;
    }
  }

  convert(html: string, xhtml: boolean): MarkdownPage {
    readHtml(html, this, xhtml);
    while (this.stack.length > 0) this.close(this.stack[this.stack.length - 1]!.name);
    const all = this.out;
    const region = this.mainRegion();
    const pieces = region ? all.slice(region.from, region.to) : all;
    return { ...(this.title ? { title: this.title } : {}), markdown: tidy(pieces.join('')) };
  }

  /** The main content's span in `out`, when one stands out; undefined for the whole page. */
  private mainRegion(): { from: number; to: number } | undefined {
    const candidate = this.main ?? (this.article && this.article.count === 1 ? this.article : undefined);
    if (!candidate || candidate.to < 0) return undefined;
    return candidate.chars >= this.chars * MAIN_SHARE ? candidate : undefined;
  }

  open(name: string, attribs: Attributes): void {
    const frame = new Frame(name, this.out.length);
    this.stack.push(frame);
    if (name === 'title' && !this.inSvg()) {
      // The first title is the page's; any other is dropped with its text.
      if (this.title === undefined && !this.titleText) {
        this.titleText = [];
        return;
      }
      this.dropDepth++;
      frame.kind = Kind.Drop;
      return;
    }
    if (this.dropDepth > 0 || this.dropped(name, attribs)) {
      this.dropDepth++;
      frame.kind = Kind.Drop;
      return;
    }
    const role = attribs.role;
    if (name === 'main' || name === 'article' || role === 'main') this.enterContent(frame, name === 'article' && role !== 'main');
    else if (name === 'section') {
      this.contentDepth++;
      frame.content = Content.Content;
    }
    if (name === 'div' && attribs.class?.includes('highlight-')) {
      const language = /(?:^|\s)highlight-(?:source-)?([\w+#.-]+)/.exec(attribs.class)?.[1];
      if (language && !PLAIN_TEXT.has(language) && frame.kind === Kind.None) {
        frame.kind = Kind.Highlight;
        frame.mark = this.codeLanguage;
        this.codeLanguage = language;
      }
    }
    if (this.preDepth > 0) {
      // Inside a code block only the text counts (a highlighter's spans), and the language its <code> names.
      const language = name === 'code' ? languageOf(attribs.class) : undefined;
      if (language && this.pendingFence !== undefined && this.out[this.pendingFence] === '```') this.out[this.pendingFence] = `\`\`\`${language}`;
      // A line break; a <code> right after another in one block (Node's docs give the ESM and the
      // CommonJS form so) starts a line too. Code elements with text between them stay on the line.
      if (name === 'br' || (name === 'code' && this.codeEnded && !this.atLineStart)) {
        this.out.push(`\n${this.prefix}`);
        this.atLineStart = true;
      }
      return;
    }
    if (this.table && this.tableTag(name, frame)) return;
    const nestedList = (name === 'ul' || name === 'ol') && this.lists.length > 0;
    if (nestedList) this.block(1);
    else if (!this.afterMarker) {
      if (PARAGRAPH.has(name)) this.block(2);
      else if (LINE.has(name)) this.block(1);
    }
    switch (name) {
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        this.write(HEADING_MARKS[name.charCodeAt(1) - 49]!);
        this.afterMarker = true;
        frame.kind = Kind.Heading;
        break;
      case 'pre':
        this.write(`\`\`\`${languageOf(attribs.class) ?? this.codeLanguage}`);
        this.pendingFence = this.out.length - 1;
        this.block(1, true);
        this.preDepth++;
        this.preFresh = true;
        this.codeEnded = false;
        frame.kind = Kind.Pre;
        break;
      case 'blockquote':
        this.flushOwed();
        frame.mark = this.prefix;
        frame.kind = Kind.Quote;
        if (++this.quotes <= MAX_INDENT) {
          this.prefix += '> ';
          this.out.push('> ');
          this.atLineStart = true;
        }
        break;
      case 'ul':
      case 'ol': {
        const start = Number.parseInt(attribs.start ?? '1', 10);
        this.lists.push(name === 'ol' ? (Number.isSafeInteger(start) && start >= 0 ? start : 1) : undefined);
        frame.kind = Kind.List;
        break;
      }
      case 'li':
        this.listItem(frame);
        break;
      case 'br':
        this.block(1, true);
        break;
      case 'hr':
        this.write('---');
        this.block(2);
        break;
      case 'a':
        this.link(frame, attribs.href);
        break;
      case 'strong':
      case 'b':
      case 'dt':
        this.wrap(frame, '**');
        break;
      case 'em':
      case 'i':
        this.wrap(frame, '_');
        break;
      case 'del':
      case 's':
        this.wrap(frame, '~~');
        break;
      case 'sup':
      case 'sub':
        this.write(name === 'sup' ? '^' : '_');
        frame.kind = Kind.Script;
        frame.mark = name === 'sup' ? '^' : '_';
        frame.piece = this.out.length - 1;
        break;
      case 'code':
        if (this.codes > 0) break;
        this.codes++;
        this.write('`');
        frame.piece = this.out.length - 1;
        frame.kind = Kind.Code;
        break;
      case 'img':
        this.image(attribs);
        break;
      case 'table':
        this.owed = 0;
        if (!this.table) this.table = { rows: [], row: [], depth: this.stack.length, cellAt: this.out.length, nested: 0, layout: false };
        else {
          // A table in a cell (page layout, a nested data table): its rows go on as the cell's lines.
          this.table.nested++;
          this.table.layout = true;
          this.breakOwed = true;
        }
        frame.kind = Kind.Table;
        break;
      case 'dd':
        this.write(': ');
        this.afterMarker = true;
        break;
    }
  }

  close(name: string): void {
    if (name === 'title' && this.titleText) {
      this.title = collapse(this.titleText.join('')).trim() || undefined;
      this.titleText = undefined;
    }
    // Close the innermost open element of that name and any left open inside it.
    const { stack } = this;
    let index = stack.length - 1;
    while (index >= 0 && stack[index]!.name !== name) index--;
    if (index < 0) return;
    while (stack.length > index) {
      const frame = stack.pop()!;
      if (frame.kind !== Kind.None) this.finish(frame);
      else if (frame.name === 'code' && this.preDepth > 0) this.codeEnded = true;
      if (frame.content !== Content.None) this.leaveContent(frame);
      if (this.dropDepth > 0) continue;
      const closed = frame.name;
      if (this.table) {
        if (LINE.has(closed) || PARAGRAPH.has(closed)) this.breakOwed = true;
        continue;
      }
      if (LINE.has(closed)) this.block(1);
      else if (PARAGRAPH.has(closed) && closed !== 'ul' && closed !== 'ol') this.block(2);
    }
  }

  /** Does what an element owes when it closes. */
  private finish(frame: Frame): void {
    switch (frame.kind) {
      case Kind.Drop:
        this.dropDepth--;
        break;
      case Kind.Heading:
        this.block(2);
        break;
      case Kind.Pre:
        this.preDepth--;
        this.pendingFence = undefined;
        if (!this.atLineStart) this.out.push(`\n${this.prefix}`);
        this.out.push('```');
        this.atLineStart = false;
        this.block(2);
        break;
      case Kind.Quote:
        this.quotes--;
        this.prefix = frame.mark;
        this.block(2);
        break;
      case Kind.List:
        this.lists.pop();
        this.block(this.lists.length > 0 ? 1 : 2);
        break;
      case Kind.Item:
        this.prefix = frame.mark;
        this.block(1);
        break;
      case Kind.Link:
        if (this.onlySpace(frame.piece + 1)) this.unwrite(frame.piece);
        else {
          this.out.push(`](${frame.mark})`);
          this.atLineStart = false;
        }
        break;
      case Kind.Highlight:
        this.codeLanguage = frame.mark;
        break;
      case Kind.Anchor:
        this.endAnchor(frame.piece);
        break;
      case Kind.Wrap:
        if (this.onlySpace(frame.piece + 1)) this.unwrite(frame.piece);
        else {
          this.out.push(frame.mark);
          this.atLineStart = false;
        }
        break;
      case Kind.Script:
        this.endScript(frame);
        break;
      case Kind.Code:
        this.codes--;
        this.endInlineCode(frame.piece);
        break;
      case Kind.Table:
        this.endTable();
        break;
      case Kind.Cell: {
        const cell = collapse(this.out.splice(frame.at).join('')).trim();
        this.table?.row.push(cell);
        this.breakOwed = false;
        break;
      }
    }
  }

  text(raw: string): void {
    if (this.titleText) {
      this.titleText.push(raw);
      return;
    }
    if (this.dropDepth > 0) return;
    if (this.preDepth > 0) {
      // The newline right after <pre> is not content.
      const code = this.preFresh ? raw.replace(/^\r?\n/, '') : raw;
      this.preFresh = false;
      if (code === '') return;
      this.codeEnded = false;
      this.out.push(code.includes('\n') ? code.replace(/\n/g, `\n${this.prefix}`) : code);
      this.atLineStart = code.endsWith('\n');
      return;
    }
    const text = collapse(raw);
    const trimmed = text.trim();
    if (trimmed === '') {
      if (!this.atLineStart) this.spaceOwed = true;
      return;
    }
    if (text.charCodeAt(0) === 32 && !this.atLineStart) this.spaceOwed = true;
    this.write(trimmed);
    this.spaceOwed = text.charCodeAt(text.length - 1) === 32;
  }

  /** Writes inline text, after the line breaks owed and the line prefix. */
  private write(text: string): void {
    if (text === '') return;
    if (this.owed > 0) this.flushOwed();
    if (this.breakOwed) {
      this.breakOwed = false;
      if (this.table && this.out.length > this.table.cellAt) {
        this.out.push(CELL_BREAK);
        this.spaceOwed = false;
      }
    }
    // A marker ends with its space.
    if (this.spaceOwed && !this.atLineStart && !this.afterMarker) this.out.push(' ');
    this.afterMarker = false;
    this.spaceOwed = false;
    this.out.push(text);
    this.chars += text.length;
    this.atLineStart = false;
  }

  private flushOwed(): void {
    if (this.owed > 0 && this.out.length > 0) {
      const blank = this.owed === 2 ? `\n${this.prefix.trimEnd()}` : '';
      this.out.push(`${blank}\n${this.prefix}`);
      this.atLineStart = true;
      this.spaceOwed = false;
    }
    this.owed = 0;
  }

  /** Owes a line break (1) or a blank line (2) before the next text; `hard` writes it now (`<br>`). */
  private block(level: 1 | 2, hard = false): void {
    if (this.table) {
      this.spaceOwed = true;
      return;
    }
    if (hard) {
      this.out.push(`\n${this.prefix}`);
      this.atLineStart = true;
      this.spaceOwed = false;
      return;
    }
    if ((!this.atLineStart || this.owed > 0) && level > this.owed) this.owed = level;
  }

  /** A main element (or `role="main"`), or an article: content, and maybe the main content's candidate. */
  private enterContent(frame: Frame, article: boolean): void {
    this.contentDepth++;
    frame.content = Content.Content;
    // Inside a table or inline code the output is gathered and spliced back later: a span there
    // would point at pieces that are gone.
    if (this.table || this.stack.some((open) => open.kind === Kind.Code)) return;
    if (!article) {
      if (this.main) return;
      this.main = { from: this.out.length, to: -1, chars: -this.chars };
      frame.content = Content.Main;
    } else if (this.article) this.article.count++;
    else {
      this.article = { from: this.out.length, to: -1, chars: -this.chars, count: 1 };
      frame.content = Content.Article;
    }
  }

  private leaveContent(frame: Frame): void {
    this.contentDepth--;
    const region = frame.content === Content.Main ? this.main : frame.content === Content.Article ? this.article : undefined;
    if (!region) return;
    region.to = this.out.length;
    region.chars += this.chars;
  }

  private inSvg(): boolean {
    for (const open of this.stack) if (open.name === 'svg') return true;
    return false;
  }

  private listItem(frame: Frame): void {
    const depth = this.lists.length;
    const counter = this.lists[depth - 1];
    const marker = counter === undefined ? '- ' : `${counter}. `;
    if (counter !== undefined) this.lists[depth - 1] = counter + 1;
    frame.mark = this.prefix;
    frame.kind = Kind.Item;
    this.block(1);
    this.write(marker);
    this.afterMarker = true;
    if (depth <= MAX_INDENT) this.prefix = frame.mark + ' '.repeat(marker.length);
  }

  private link(frame: Frame, href: string | undefined): void {
    if (href?.startsWith('#')) {
      frame.kind = Kind.Anchor;
      frame.piece = this.out.length;
      return;
    }
    const target = href === undefined || /^\s*javascript:/i.test(href) ? undefined : this.resolve(href);
    if (target === undefined) return;
    this.write('[');
    frame.kind = Kind.Link;
    frame.mark = target;
    frame.piece = this.out.length - 1;
  }

  private wrap(frame: Frame, mark: string): void {
    this.write(mark);
    frame.kind = Kind.Wrap;
    frame.mark = mark;
    frame.piece = this.out.length - 1;
  }

  /**
   * `2<sup>n</sup>` is `2^n`, `2<sup>n − 1</sup>` `2^(n − 1)` (`2<sup>(n − 1)</sup>` too): the
   * exponent must not read as `2n`. Only the first {@link SCRIPT_PEEK} characters are looked at
   * (longer ones get parentheses): nested superscripts would each read all the text inside them.
   */
  private endScript(frame: Frame): void {
    if (this.onlySpace(frame.piece + 1)) {
      this.unwrite(frame.piece);
      return;
    }
    let text = '';
    for (let i = frame.piece + 1; i < this.out.length && text.length <= SCRIPT_PEEK; i++) text += this.out[i];
    text = text.trim();
    const short = text.length <= SCRIPT_PEEK;
    if (!short || (/\s/.test(text) && !(text.startsWith('(') && text.endsWith(')')))) {
      this.out[frame.piece] = `${frame.mark}(`;
      this.out.push(')');
      this.atLineStart = false;
    }
  }

  private image(attribs: Attributes): void {
    const alt = collapse(attribs.alt ?? '').trim();
    if (alt === '') return;
    const src = this.resolve(attribs.src);
    if (src !== undefined) this.write(`![${alt.replace(/[[\]]/g, '\\$&')}](${src})`);
  }

  private endInlineCode(at: number): void {
    if (this.onlySpace(at + 1)) return this.unwrite(at);
    // Fenced with more backticks than it holds.
    const code = this.out.splice(at + 1).join('');
    const ticks = '`'.repeat(longestBacktickRun(code) + 1);
    const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
    this.out[at] = `${ticks}${pad}${code}${pad}${ticks}`;
    this.atLineStart = false;
  }

  /** Inside a table, rows and cells are collected instead of written; true when the tag was handled. */
  private tableTag(name: string, frame: Frame): boolean {
    const table = this.table!;
    if (table.nested > 0 && (name === 'tr' || name === 'td' || name === 'th')) {
      // A nested table's rows are lines of the outer cell, its cells words of the line.
      if (name === 'tr') this.breakOwed = true;
      else this.spaceOwed = true;
      return true;
    }
    if (name === 'tr') {
      if (table.row.length > 0) table.rows.push(table.row);
      table.row = [];
      return true;
    }
    if (name === 'td' || name === 'th') {
      frame.kind = Kind.Cell;
      table.cellAt = this.out.length;
      this.breakOwed = false;
      this.spaceOwed = false;
      return true;
    }
    if (name === 'br' || LINE.has(name) || PARAGRAPH.has(name)) {
      this.breakOwed = true;
      return name !== 'table';
    }
    return !IN_CELLS.has(name);
  }

  private endTable(): void {
    const table = this.table;
    if (!table) return;
    if (this.stack.length + 1 !== table.depth) {
      table.nested--;
      this.breakOwed = true;
      return;
    }
    this.table = undefined;
    this.breakOwed = false;
    if (table.row.length > 0) table.rows.push(table.row);
    const rows = table.rows.filter((row) => row.some((cell) => cell !== ''));
    if (rows.length === 0) return;
    if (table.layout) {
      // A table of tables lays a page out: its cells are blocks, their lines lines.
      const blocks = rows.map((row) => row.filter((cell) => cell !== '').map((cell) => cell.split(CELL_BREAK).join(`\n${this.prefix}`)).join(`\n${this.prefix}`));
      this.out.push(`\n\n${this.prefix}${blocks.join(`\n\n${this.prefix}`)}\n\n${this.prefix}`);
      this.atLineStart = true;
      this.owed = 0;
      return;
    }
    for (const row of rows) for (let i = 0; i < row.length; i++) if (row[i]!.includes('|')) row[i] = row[i]!.replace(/\|/g, '\\|');
    let width = 0;
    for (const row of rows) width = Math.max(width, row.length);
    // Short rows are padded to the widest; past MAX_PADDED columns only the header is (Markdown
    // fills a short row itself), so a page cannot make every row as wide as its widest.
    const padded = (row: string[]) => (row.length < width && (row === rows[0] || width <= MAX_PADDED) ? row.concat(Array<string>(width - row.length).fill('')) : row);
    const line = (row: string[]) => `| ${padded(row).join(' | ')} |`;
    const lines = [line(rows[0]!), `| ${Array<string>(width).fill('---').join(' | ')} |`];
    for (let i = 1; i < rows.length; i++) lines.push(line(rows[i]!));
    // Blank lines around it; tidy() takes out any extra.
    this.out.push(`\n\n${this.prefix}${lines.join(`\n${this.prefix}`)}\n\n${this.prefix}`);
    this.atLineStart = true;
    this.owed = 0;
  }

  /** A heading's own link (Sphinx's ¶, rustdoc's §, a # or 🔗) goes; other in-page links keep their text. */
  private endAnchor(from: number): void {
    const text = this.out.slice(from).join('').trim();
    if (!ANCHOR_MARKS.has(text)) return;
    this.chars -= text.length;
    this.unwrite(from, this.out.length);
  }

  /** Takes back the pieces `from`–`to` (a mark that wrapped nothing, an icon link), with the space written before them. */
  private unwrite(from: number, to = from + 1): void {
    for (let i = from; i < to; i++) this.out[i] = '';
    if (this.out[from - 1] === ' ') {
      this.out[from - 1] = '';
      this.spaceOwed = true;
    }
  }

  private onlySpace(from: number): boolean {
    for (let i = from; i < this.out.length; i++) if (this.out[i]!.trim() !== '') return false;
    return true;
  }

  private dropped(name: string, attribs: Attributes): boolean {
    if (DROP.has(name)) return true;
    if (attribs === NO_ATTRIBUTES) return this.contentDepth === 0 && DROP_OUTSIDE_CONTENT.has(name);
    if (this.contentDepth === 0 && DROP_OUTSIDE_CONTENT.has(name)) return true;
    if (attribs.hidden !== undefined || attribs['aria-hidden'] === 'true') return true;
    // DocBook's Prev/Up/Home/Next tables above and below every page (PostgreSQL's, valgrind's manuals).
    if (name === 'table' && attribs.summary !== undefined && /^navigation\b/i.test(attribs.summary)) return true;
    // rustdoc's toggle label ("Expand description" above every crate's and item's docs).
    if (name === 'summary' && attribs.class !== undefined && /(?:^|\s)hideme(?:\s|$)/.test(attribs.class)) return true;
    const role = attribs.role;
    return role !== undefined && DROP_ROLES.has(role);
  }

  private resolve(href: string | undefined): string | undefined {
    if (href === undefined || href.trim() === '') return undefined;
    try {
      const url = this.base ? new URL(href.trim(), this.base) : new URL(href.trim());
      if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'mailto:') return undefined;
      const { href: resolved } = url;
      return /[()\s]/.test(resolved) ? resolved.replace(/[()\s]/g, (c) => encodeURIComponent(c)) : resolved;
    } catch {
      return undefined;
    }
  }
}

/** Inline elements written as Markdown inside table cells too (the rest give their text only). */
const IN_CELLS = new Set(['a', 'strong', 'b', 'em', 'i', 'code', 'img', 'table', 'sup', 'sub', 'del', 's']);

/** How much of a superscript's or subscript's text decides whether it needs parentheses. */
const SCRIPT_PEEK = 200;

/** A line break inside a table cell. */
const CELL_BREAK = '<br>';

const ANCHOR_MARKS = new Set(['¶', '§', '#', '🔗', '⚓']);

const HEADING_MARKS = ['# ', '## ', '### ', '#### ', '##### ', '###### '];

/** The language a code block's class names (`language-ts`, `lang-py`). */
function languageOf(className: string | undefined): string | undefined {
  if (className === undefined) return undefined;
  // rustdoc marks its examples `rust` (`<pre class="rust rust-example-rendered">`).
  return /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(className)?.[1] ?? (/(?:^|\s)rust(?:\s|$)/.test(className) ? 'rust' : undefined);
}

/** Sphinx's names for code blocks that are not code. */
const PLAIN_TEXT = new Set(['none', 'text', 'default']);

/** Runs of whitespace as one space (a global replace costs even when there is nothing to replace). */
function collapse(text: string): string {
  return /[^\S ]| \s/.test(text) ? text.replace(/\s+/g, ' ') : text;
}

/** Trailing spaces off, at most one blank line in a row, no blank lines at the ends. */
function tidy(markdown: string): string {
  // Trailing spaces by hand: `/[ \t]+\n/g` retried every space of a long run (a <pre> of 100,000
  // spaces took 5.7 s).
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let end = line.length;
    while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
    if (end < line.length) lines[i] = line.slice(0, end);
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}
