import { Parser } from 'htmlparser2';

// A web page's main content as Markdown, in one pass of htmlparser2's tokenizer (no DOM is
// built: a 1 MB page converts in ~10–20 ms warm). What a reader needs stays — headings,
// paragraphs, links (resolved against the page's URL), lists, code blocks with their language,
// quotes, tables, emphasis, images' alt text — and what only a browser needs goes: scripts,
// styles, forms, navigation, page headers and footers, hidden elements.
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
/** Dropped outside the content root only: an article's own header holds its title. */
const DROP_OUTSIDE_CONTENT = new Set(['header', 'footer']);
const DROP_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'menu', 'menubar', 'alert']);
/** Blocks set apart by a blank line. */
const PARAGRAPH = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'pre', 'blockquote', 'table', 'hr', 'dl', 'figure', 'details']);
/** Blocks that start a new line. */
const LINE = new Set(['div', 'section', 'article', 'main', 'header', 'footer', 'li', 'tr', 'dt', 'dd', 'figcaption', 'summary', 'address', 'center', 'body']);
/** A region must hold at least this share of the body's text to be taken as the main content. */
const MAIN_SHARE = 0.25;

/** A candidate for the main content: its span in the output and the text it holds. */
interface Region {
  from: number;
  to: number;
  /** Characters of text inside (set when it closes). */
  chars: number;
}

interface Frame {
  name: string;
  /** Where this element's output starts in `out` (links, emphasis and cells look back to it). */
  at: number;
  /** Restores what the element changed when it closes. */
  close?: () => void;
}

export function htmlToMarkdown(html: string, pageUrl: string): MarkdownPage {
  return new Converter(pageUrl).convert(html);
}

class Converter {
  /** Output pieces; a piece may be blanked later (an empty link's `[`). */
  private out: string[] = [];
  private readonly stack: Frame[] = [];
  /** > 0 inside a dropped subtree: nothing is written. */
  private dropDepth = 0;
  /** > 0 inside `<pre>`: text is written as it is. */
  private preDepth = 0;
  /** Inside main/article: a header or footer there is kept. */
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
  /** The outermost table being read: its rows of cells. */
  private table: { rows: string[][]; row: string[]; depth: number } | undefined;
  /** Output span of the main content candidates, once closed. */
  private main: Region | undefined;
  private article: (Region & { count: number }) | undefined;
  /** Characters of text written so far (regions compare theirs with it). */
  private chars = 0;
  private base: URL | undefined;

  constructor(pageUrl: string) {
    try {
      this.base = new URL(pageUrl);
    } catch {
      this.base = undefined;
    }
  }

  convert(html: string): MarkdownPage {
    const parser = new Parser(
      {
        onopentag: (name, attribs) => this.open(name, attribs),
        ontext: (text) => this.text(text),
        onclosetag: (name) => this.close(name),
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
    );
    parser.end(html);
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

  private open(name: string, attribs: Record<string, string>): void {
    const frame: Frame = { name, at: this.out.length };
    this.stack.push(frame);
    if (name === 'title' && this.title === undefined && !this.stack.some((open) => open.name === 'svg')) {
      this.titleText = [];
      return;
    }
    if (this.dropDepth > 0 || this.dropped(name, attribs)) {
      this.dropDepth++;
      frame.close = () => this.dropDepth--;
      return;
    }
    if (name === 'main' || attribs.role === 'main') {
      if (!this.main) {
        const region: Region = (this.main = { from: this.out.length, to: -1, chars: -this.chars });
        frame.close = () => {
          region.to = this.out.length;
          region.chars += this.chars;
        };
      }
    } else if (name === 'article') {
      if (this.article) this.article.count++;
      else {
        const region = (this.article = { from: this.out.length, to: -1, chars: -this.chars, count: 1 });
        frame.close = () => {
          region.to = this.out.length;
          region.chars += this.chars;
        };
      }
    }
    if (name === 'main' || name === 'article' || attribs.role === 'main') {
      this.contentDepth++;
      const previous = frame.close;
      frame.close = () => {
        previous?.();
        this.contentDepth--;
      };
    }
    if (this.preDepth > 0) {
      // Inside a code block only the text counts (a highlighter's spans), and the language its <code> names.
      const language = name === 'code' ? languageOf(attribs.class) : undefined;
      if (language && this.pendingFence !== undefined && this.out[this.pendingFence] === '```') this.out[this.pendingFence] = `\`\`\`${language}`;
      if (name === 'br') this.out.push(`\n${this.prefix}`);
      return;
    }
    if (this.table && this.tableTag(name)) return;
    const nestedList = (name === 'ul' || name === 'ol') && this.lists.length > 0;
    if (PARAGRAPH.has(name) && !nestedList) this.block(2);
    else if (LINE.has(name) || nestedList) this.block(1);
    switch (name) {
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        this.write(`${'#'.repeat(Number(name[1]))} `);
        frame.close = () => this.block(2);
        break;
      case 'p':
      case 'pre':
      case 'blockquote':
      case 'ul':
      case 'ol':
      case 'dl':
      case 'figure':
      case 'details':
        this.paragraphElement(name, frame, attribs);
        break;
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
      case 'code':
        this.inlineCode(frame);
        break;
      case 'img': {
        const alt = (attribs.alt ?? '').replace(/\s+/g, ' ').trim();
        const src = this.resolve(attribs.src);
        if (alt !== '' && src !== undefined) this.write(`![${alt.replace(/[[\]]/g, '\\$&')}](${src})`);
        break;
      }
      case 'table':
        this.owed = 0;
        if (!this.table) this.table = { rows: [], row: [], depth: this.stack.length };
        frame.close = () => this.endTable();
        break;
      case 'dt':
        this.wrap(frame, '**');
        break;
      case 'dd':
        this.write(': ');
        break;
    }
  }

  private close(name: string): void {
    if (name === 'title' && this.titleText) {
      this.title = this.titleText.join('').replace(/\s+/g, ' ').trim() || undefined;
      this.titleText = undefined;
    }
    // Close the innermost open element of that name and any left open inside it.
    let index = this.stack.length - 1;
    while (index >= 0 && this.stack[index]!.name !== name) index--;
    if (index < 0) return;
    while (this.stack.length > index) {
      const frame = this.stack.pop()!;
      frame.close?.();
      if (this.dropDepth === 0 && !this.table && LINE.has(frame.name)) this.block(1);
      else if (this.dropDepth === 0 && !this.table && PARAGRAPH.has(frame.name) && frame.name !== 'ul' && frame.name !== 'ol') this.block(2);
    }
  }

  private text(raw: string): void {
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
      this.out.push(code.replace(/\n/g, `\n${this.prefix}`));
      this.atLineStart = code.endsWith('\n');
      return;
    }
    const text = raw.replace(/\s+/g, ' ');
    if (text.trim() === '') {
      if (!this.atLineStart) this.spaceOwed = true;
      return;
    }
    if (text.startsWith(' ') && !this.atLineStart) this.spaceOwed = true;
    this.write(text.trim());
    this.spaceOwed = text.endsWith(' ');
  }

  /** Writes inline text, after the line breaks owed and the line prefix. */
  private write(text: string): void {
    if (text === '') return;
    this.flushOwed();
    if (this.spaceOwed && !this.atLineStart) this.out.push(' ');
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
    if (!this.atLineStart || this.owed > 0) this.owed = Math.max(this.owed, level) as 1 | 2;
  }

  private paragraphElement(name: string, frame: Frame, attribs: Record<string, string>): void {
    if (name === 'pre') {
      this.write(`\`\`\`${languageOf(attribs.class) ?? ''}`);
      this.pendingFence = this.out.length - 1;
      this.block(1, true);
      this.preDepth++;
      this.preFresh = true;
      frame.close = () => {
        this.preDepth--;
        this.pendingFence = undefined;
        if (!this.atLineStart) this.out.push(`\n${this.prefix}`);
        this.out.push('```');
        this.atLineStart = false;
        this.block(2);
      };
      return;
    }
    if (name === 'blockquote') {
      this.flushOwed();
      const previous = this.prefix;
      this.prefix += '> ';
      this.out.push('> ');
      this.atLineStart = true;
      frame.close = () => {
        this.prefix = previous;
        this.block(2);
      };
      return;
    }
    if (name === 'ul' || name === 'ol') {
      const start = Number.parseInt(attribs.start ?? '1', 10);
      this.lists.push(name === 'ol' ? (Number.isFinite(start) ? start : 1) : undefined);
      frame.close = () => {
        this.lists.pop();
        this.block(this.lists.length > 0 ? 1 : 2);
      };
    }
  }

  /** The opening fence of the code block being read (its inner `<code>` may name the language). */
  private pendingFence: number | undefined;
  private preFresh = false;

  private listItem(frame: Frame): void {
    const depth = this.lists.length;
    const counter = this.lists[depth - 1];
    const marker = counter === undefined ? '- ' : `${counter}. `;
    if (counter !== undefined) this.lists[depth - 1] = counter + 1;
    const previous = this.prefix;
    this.block(1);
    this.write(marker);
    this.prefix = previous + ' '.repeat(marker.length);
    frame.close = () => {
      this.prefix = previous;
      this.block(1);
    };
  }

  private link(frame: Frame, href: string | undefined): void {
    const target = href === undefined || href.startsWith('#') || /^\s*javascript:/i.test(href) ? undefined : this.resolve(href);
    if (target === undefined) return;
    this.write('[');
    const at = this.out.length - 1;
    frame.close = () => {
      if (this.onlySpace(at + 1)) return this.unwrite(at);
      this.out.push(`](${target})`);
      this.atLineStart = false;
    };
  }

  private wrap(frame: Frame, mark: string): void {
    this.write(mark);
    const at = this.out.length - 1;
    frame.close = () => {
      if (this.onlySpace(at + 1)) this.unwrite(at);
      else {
        this.out.push(mark);
        this.atLineStart = false;
      }
    };
  }

  private inlineCode(frame: Frame): void {
    this.write('`');
    const at = this.out.length - 1;
    frame.close = () => {
      if (this.onlySpace(at + 1)) return this.unwrite(at);
      // Fenced with more backticks than it holds.
      const code = this.out.splice(at + 1).join('');
      const ticks = '`'.repeat((code.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length + 1), 1));
      const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
      this.out[at] = `${ticks}${pad}${code}${pad}${ticks}`;
      this.atLineStart = false;
    };
  }

  /** Inside a table, rows and cells are collected instead of written; true when the tag was handled. */
  private tableTag(name: string): boolean {
    const table = this.table!;
    if (name === 'tr') {
      if (table.row.length > 0) table.rows.push(table.row);
      table.row = [];
      return true;
    }
    if (name === 'td' || name === 'th') {
      const frame = this.stack[this.stack.length - 1]!;
      frame.close = () => {
        const cell = this.out.splice(frame.at).join('').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
        table.row.push(cell);
      };
      return true;
    }
    return name !== 'a' && name !== 'strong' && name !== 'b' && name !== 'em' && name !== 'i' && name !== 'code' && name !== 'img' && name !== 'table';
  }

  private endTable(): void {
    const table = this.table;
    if (!table || this.stack.length + 1 !== table.depth) return;
    this.table = undefined;
    if (table.row.length > 0) table.rows.push(table.row);
    const rows = table.rows.filter((row) => row.some((cell) => cell !== ''));
    if (rows.length === 0) return;
    const width = Math.max(...rows.map((row) => row.length));
    const line = (row: string[]) => `| ${Array.from({ length: width }, (_, i) => row[i] ?? '').join(' | ')} |`;
    const lines = [line(rows[0]!), `| ${Array.from({ length: width }, () => '---').join(' | ')} |`, ...rows.slice(1).map(line)];
    // Blank lines around it; tidy() takes out any extra.
    this.out.push(`\n\n${this.prefix}${lines.join(`\n${this.prefix}`)}\n\n${this.prefix}`);
    this.atLineStart = true;
    this.owed = 0;
  }

  /** Takes back a mark that wrapped nothing (an icon link), with the space written before it. */
  private unwrite(at: number): void {
    this.out[at] = '';
    if (this.out[at - 1] === ' ') {
      this.out[at - 1] = '';
      this.spaceOwed = true;
    }
  }

  private onlySpace(from: number): boolean {
    for (let i = from; i < this.out.length; i++) if (this.out[i]!.trim() !== '') return false;
    return true;
  }

  private dropped(name: string, attribs: Record<string, string>): boolean {
    if (DROP.has(name)) return true;
    if (this.contentDepth === 0 && DROP_OUTSIDE_CONTENT.has(name)) return true;
    if (attribs.hidden !== undefined || attribs['aria-hidden'] === 'true') return true;
    const role = attribs.role;
    return role !== undefined && DROP_ROLES.has(role);
  }

  private resolve(href: string | undefined): string | undefined {
    if (href === undefined || href.trim() === '') return undefined;
    try {
      const url = this.base ? new URL(href.trim(), this.base) : new URL(href.trim());
      if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'mailto:') return undefined;
      return url.href.replace(/[()\s]/g, (c) => encodeURIComponent(c));
    } catch {
      return undefined;
    }
  }
}

/** The language a code block's class names (`language-ts`, `lang-py`). */
function languageOf(className: string | undefined): string | undefined {
  return /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(className ?? '')?.[1];
}

/** Trailing spaces off, at most one blank line in a row, no blank lines at the ends. */
function tidy(markdown: string): string {
  return markdown
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
