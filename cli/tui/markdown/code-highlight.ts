import type { Style } from '../style.js';
import type { Span } from './spans.js';

// Syntax highlighting for fenced code, through @speed-highlight/core loaded on the first fence
// that names a language it knows (never at startup: the prompt must not wait for it). Loading is
// asynchronous and takes a few milliseconds; meanwhile {@link state} says `loading` and the caller
// holds the block's lines. Highlighting itself is synchronous (`tokenizeWith`, every language the
// grammar embeds loaded beforehand), one line at a time with the lines above it as context.

type Grammar = unknown[];
type LanguageData = Grammar | { type?: string; sub: Grammar };
interface Tokenizer {
  tokenizeWith(src: string, lang: LanguageData, onToken: (text: string, type?: string) => void, options?: { languages?: Record<string, LanguageData> }): void;
}

/** The grammars the package ships. */
const GRAMMARS = new Set(['asm', 'bash', 'c', 'css', 'csv', 'diff', 'docker', 'git', 'go', 'html', 'http', 'ini', 'java', 'js', 'jsdoc', 'json', 'log', 'lua', 'make', 'md', 'pl', 'py', 'regex', 'rs', 'sql', 'todo', 'toml', 'ts', 'uri', 'xml', 'yaml']);

/** Fence names as models write them → the grammar's name. */
const ALIASES: Record<string, string> = {
  typescript: 'ts', tsx: 'ts', mts: 'ts', cts: 'ts',
  javascript: 'js', jsx: 'js', mjs: 'js', cjs: 'js', node: 'js',
  python: 'py', python3: 'py', py3: 'py',
  rust: 'rs', golang: 'go', perl: 'pl', markdown: 'md',
  sh: 'bash', shell: 'bash', zsh: 'bash', console: 'bash', shellsession: 'bash', terminal: 'bash',
  yml: 'yaml', dockerfile: 'docker', makefile: 'make', mk: 'make',
  'c++': 'c', cpp: 'c', cc: 'c', cxx: 'c', h: 'c', hpp: 'c', objc: 'c',
  patch: 'diff', jsonc: 'json', json5: 'json', htm: 'html', svg: 'xml', xhtml: 'xml',
  postgres: 'sql', postgresql: 'sql', psql: 'sql', mysql: 'sql', sqlite: 'sql',
  cfg: 'ini', conf: 'ini', properties: 'ini', dotenv: 'ini', env: 'ini',
};

/** Lines above the current one that are tokenized with it (a block comment or string opened there). */
const CONTEXT_LINES = 20;

export type HighlightState = 'ready' | 'loading' | 'none';

export class CodeHighlighter {
  private tokenizer: Tokenizer | undefined;
  private core: Promise<unknown> | undefined;
  private readonly grammars = new Map<string, LanguageData>();
  /** Grammar files asked for (each once). */
  private readonly files = new Map<string, Promise<void>>();
  /** Fence languages asked for, and those whose loading has ended (loaded or not). */
  private readonly asked = new Map<string, Promise<void>>();
  private readonly settled = new Set<string>();

  constructor(
    private readonly style: Style,
    /** Imports a module of the package (a seam for tests: a failing import leaves code plain). */
    private readonly load: (path: string) => Promise<unknown> = (path) => import(path),
  ) {}

  /** The grammar a fence's info string (` ```ts title="x"`) names, if the package has it. */
  static grammarOf(info: string): string | undefined {
    const word = info.trim().split(/[\s{,]/)[0]!.toLowerCase().replace(/^\./, '');
    const name = ALIASES[word] ?? word;
    return GRAMMARS.has(name) ? name : undefined;
  }

  /** Whether `grammar` can be highlighted now; the first call starts loading it. */
  state(grammar: string): HighlightState {
    void this.prepare(grammar);
    if (!this.settled.has(grammar)) return 'loading';
    return this.tokenizer && this.grammars.has(grammar) ? 'ready' : 'none';
  }

  /** Settles once `grammar` has loaded or failed to. */
  prepare(grammar: string): Promise<void> {
    let asked = this.asked.get(grammar);
    if (!asked) {
      this.core ??= this.load('@speed-highlight/core/tokenize').then(
        (module) => (this.tokenizer = module as Tokenizer),
        () => undefined,
      );
      asked = Promise.all([this.core, this.loadGrammar(grammar)]).then(() => {
        this.settled.add(grammar);
      });
      this.asked.set(grammar, asked);
    }
    return asked;
  }

  /** The spans of `line`, highlighted with `context` (the block's lines above it) in view. */
  highlight(grammar: string, line: string, context: readonly string[]): Span[] {
    const data = this.grammars.get(grammar);
    if (!this.tokenizer || !data || line === '') return [{ text: line }];
    const above = context.slice(-CONTEXT_LINES);
    const source = above.length > 0 ? `${above.join('\n')}\n${line}` : line;
    const start = source.length - line.length;
    const spans: Span[] = [];
    let at = 0;
    try {
      this.tokenizer.tokenizeWith(source, data, (text, type) => {
        const end = at + text.length;
        if (end > start) {
          const piece = text.slice(Math.max(0, start - at));
          const paint = this.paintOf(type);
          spans.push(paint ? { text: piece, paint } : { text: piece });
        }
        at = end;
      }, { languages: this.languages() });
    } catch {
      return [{ text: line }];
    }
    // The tokenizer hands back every character it was given, so the pieces are the line.
    return spans.map((span) => ({ ...span, text: span.text.replace(/\n/g, '') })).filter((span) => span.text !== '');
  }

  private languages(): Record<string, LanguageData> {
    return Object.fromEntries(this.grammars);
  }

  /**
   * Loads a grammar and every grammar it embeds by name (`sub: 'jsdoc'`). A grammar already asked
   * for is not waited for again (js embeds js in template strings).
   */
  private loadGrammar(name: string): Promise<void> {
    let file = this.files.get(name);
    if (!file) {
      file = (async () => {
        let data: LanguageData;
        try {
          data = ((await this.load(`@speed-highlight/core/languages/${name}.js`)) as { default: LanguageData }).default;
        } catch {
          return;
        }
        this.grammars.set(name, data);
        const embedded = new Set<string>();
        collectEmbedded(data, embedded, new Set());
        await Promise.all([...embedded].filter((sub) => GRAMMARS.has(sub) && !this.files.has(sub)).map((sub) => this.loadGrammar(sub)));
      })();
      this.files.set(name, file);
    }
    return file;
  }

  private paintOf(type: string | undefined): ((text: string) => string) | undefined {
    const { style } = this;
    switch (type) {
      case 'kwd':
        return style.magenta;
      case 'str':
        return style.green;
      case 'cmnt':
        return style.dim;
      case 'num':
      case 'bool':
        return style.yellow;
      case 'func':
        return style.blue;
      case 'class':
      case 'type':
      case 'esc':
        return style.cyan;
      case 'var':
      case 'err':
      case 'deleted':
        return style.red;
      case 'insert':
        return style.green;
      case 'section':
        return style.bold;
      default:
        return undefined;
    }
  }
}

function collectEmbedded(value: unknown, names: Set<string>, seen: Set<unknown>): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) collectEmbedded(item, names, seen);
    return;
  }
  const sub = (value as { sub?: unknown }).sub;
  if (typeof sub === 'string') names.add(sub);
  else collectEmbedded(sub, names, seen);
}
