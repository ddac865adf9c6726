import { defineTool } from './define-tool.js';
import { invalidArgs, string, type ArgsOf } from './params.js';
import type { PreparedCall } from '../prepared.js';
import { redactorFor } from '../safety/secret-env.js';
import { fetchBody, MAX_BODY_BYTES } from '../web/fetch-page.js';
import { ToolError } from './tool-error.js';
import { formatBytes, plural, type ToolEnv, type ToolOutcome } from './tool-env.js';

/** Markdown past this many characters goes to a spill file that `read` opens; the first part is inline. */
export const FETCH_INLINE_CHARS = 40_000;
/** A page fetched again within this time comes from the session's cache. */
const CACHE_MS = 15 * 60_000;
const CACHE_ENTRIES = 50;

const params = {
  url: string('The http(s) URL of the page.', { required: true, nonEmpty: true }),
};

/**
 * `fetch{url}`: a web page as readable Markdown (SPEC §19). HTML becomes its main content in
 * Markdown (`web/html-markdown.ts`); text, Markdown and JSON come as they are; a PDF or another
 * binary type is refused in one line. Reading a domain is approved per domain: the action names
 * it (`domain`), so an "always" answer covers the domain for the session, and headless declines
 * it. Redirects are followed within that domain only. Pages are cached for the session (the
 * executor's life), so a second read of the same URL asks and downloads nothing.
 */
export const fetchTool = defineTool({
  name: 'fetch',
  description:
    'Read a web page (http or https URL) as Markdown: the main content of an HTML page with its links, or text and JSON as they are. PDFs and binary files are refused. Long pages give their first part inline and the whole in a file that read can open.',
  params,
  check: (args) => {
    parseUrl(args.url);
  },
  modes: { agent: {}, plan: {} },
  approval: 'ask',
  prepare: prepareFetch,
});

interface Cached {
  at: number;
  outcome: ToolOutcome;
}

/** Pages read in this session (this executor), by URL as asked. */
const cache = new Map<string, Cached>();

async function prepareFetch(args: ArgsOf<typeof params>, env: ToolEnv): Promise<PreparedCall> {
  const url = parseUrl(args.url);
  const cached = cache.get(url.href);
  if (cached && Date.now() - cached.at < CACHE_MS) {
    // Read (and so approved) before in this session: nothing is asked or downloaded.
    return { run: async () => ({ ...cached.outcome, summary: `${cached.outcome.summary} (from this session's cache)` }) };
  }
  // SPEC §16: a value reika knows to be secret never leaves in a URL, whatever the domain.
  const redactor = redactorFor(env.settings.secrets);
  if (redactor.redact(url.href) !== url.href || redactor.redact(safeDecode(url.href)) !== safeDecode(url.href)) {
    throw new ToolError('FETCH_REFUSED', 'the URL holds a value reika knows to be secret (a key or token from the environment or settings); it is not sent anywhere');
  }
  const host = url.hostname;
  return {
    action: { tool: 'fetch', domain: host, path: url.href, changesFiles: false, reasons: [`reads a web page from ${host}`] },
    run: async () => {
      const outcome = await readPage(url, host, env);
      cache.delete(url.href);
      cache.set(url.href, { at: Date.now(), outcome });
      if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      return outcome;
    },
  };
}

async function readPage(url: URL, host: string, env: ToolEnv): Promise<ToolOutcome> {
  const body = await fetchBody(url, { signal: env.signal, host });
  const html = body.type === 'text/html' || body.type === 'application/xhtml+xml';
  let title: string | undefined;
  let content = body.text;
  if (html) {
    // Loaded with the first page: the registry is read in reika's main process at startup, and
    // the converter with its entity tables (`entities`) would cost milliseconds of it there.
    const { htmlToMarkdown } = await import('../web/html-markdown.js');
    const page = htmlToMarkdown(body.text, body.url, body.type === 'application/xhtml+xml');
    title = page.title;
    content = page.markdown;
  }
  const notes: string[] = [];
  if (body.truncated) notes.push(`only the first ${formatBytes(MAX_BODY_BYTES)} of the page were read`);
  let payload = content;
  let spillPath: string | undefined;
  if (content.length > FETCH_INLINE_CHARS) {
    spillPath = await env.spill.write('fetch', content, html ? 'md' : 'txt');
    const cut = content.lastIndexOf('\n', FETCH_INLINE_CHARS);
    payload = content.slice(0, cut > FETCH_INLINE_CHARS / 2 ? cut : FETCH_INLINE_CHARS);
    notes.push(`first ${plural(payload.length, 'character')} of ${plural(content.length, 'character')} inline; the whole ${html ? 'Markdown' : 'text'} is in ${spillPath} (read it with an offset)`);
  }
  const header = [`URL: ${body.url}`, ...(title ? [`Title: ${title}`] : []), ''];
  const redirected = body.url !== url.href ? ` (redirected to ${body.url})` : '';
  const what = html ? 'Markdown' : body.type;
  const summary = `fetched ${url.href}${redirected}${title ? ` — ${title}` : ''}: ${formatBytes(Buffer.byteLength(content))} of ${what}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`;
  return {
    summary,
    payload: `${header.join('\n')}\n${payload}${notes.length > 0 ? `\n\n[${notes.join('; ')}]` : ''}`,
    ...(spillPath ? { meta: { spillPath } } : {}),
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalidArgs('fetch', `"${raw}" is not a URL (give a full http:// or https:// address)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidArgs('fetch', `fetch reads http and https URLs only, not ${url.protocol.replace(/:$/, '')}`);
  url.hash = '';
  return url;
}
