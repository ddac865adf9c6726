import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { htmlToMarkdown } from '../actors/tool-executor/web/html-markdown.js';
import { readHtml } from '../actors/tool-executor/web/html-tokens.js';
import { fmt, row, summarize } from './stats.js';

// `fetch`'s HTML to Markdown on a 1 MB page (navigation, sidebar, scripts, ads and a long article
// of headings, paragraphs, links, lists, code blocks and tables), CPU time of the conversion:
// the first call in a fresh process, as the tool executor makes it (median of 5 processes: V8
// has compiled nothing yet, and its optimising compiles run on other threads, which the process's
// CPU time counts), and the median of warm calls, beside a bare pass of the converter's own HTML
// reader over the same bytes, its events going nowhere (the floor: no output).

/** A page of about `bytes`, shaped like a release-notes page of a documentation site. */
export function samplePage(bytes: number): string {
  const parts = [
    '<!doctype html><html><head><title>Release notes</title><style>body{font:14px sans-serif}.nav a{color:red}</style><script>window.analytics=function(){var x=1;for(var i=0;i<10;i++)x+=i;return x};</script></head><body>',
    `<header><nav class="nav"><ul>${Array.from({ length: 40 }, (_, i) => `<li><a href="/section/${i}">Section ${i}</a></li>`).join('')}</ul></nav></header>`,
    `<aside class="sidebar"><h3>Related</h3><ul>${Array.from({ length: 30 }, (_, i) => `<li><a href="/related/${i}">Related post ${i}</a></li>`).join('')}</ul></aside>`,
    '<main><article><h1>Release notes for version 4.2</h1>',
  ];
  let size = parts.join('').length;
  for (let n = 1; size < bytes - 2_000; n++) {
    const section =
      `<h2 id="s${n}">Change ${n}: the parser</h2><p>This release changes how the <code>parse()</code> function handles <a href="https://example.com/docs/${n}">nested blocks</a>, and fixes <strong>issue #${n}</strong> where a <em>trailing comma</em> was lost. The behaviour is documented in the migration guide; existing callers keep working.</p>` +
      `<ul><li>Faster tokenizer for large inputs (${n}% fewer allocations)</li><li>New option <code>strict</code></li><li>Deprecated <code>legacyMode</code></li></ul>` +
      '<pre><code class="language-js">const tree = parse(source, { strict: true });\nconsole.log(tree.children.length);</code></pre>' +
      (n % 5 === 0 ? `<table><thead><tr><th>input</th><th>before</th><th>after</th></tr></thead><tbody><tr><td>small</td><td>${n} ms</td><td>${n / 2} ms</td></tr></tbody></table>` : '') +
      `<script>track("section-${n}")</script><div class="ad">Advertisement <img src="/ad${n}.png"></div>`;
    parts.push(section);
    size += section.length;
  }
  parts.push('</article></main><footer><nav><a href="/about">About</a></nav><p>© 2026 Example Inc.</p></footer><script src="/app.js"></script></body></html>');
  return parts.join('');
}

const NOWHERE = { open() {}, text() {}, close() {} };

function cpuMs(run: () => unknown): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const FIRST_CALL = '--first-call';

/** In a fresh process: the CPU time of the first conversion, printed. */
function firstCall(): void {
  const html = samplePage(1024 * 1024);
  console.log(cpuMs(() => htmlToMarkdown(html, 'https://example.com/notes')));
}

export default async function (): Promise<void> {
  const html = samplePage(1024 * 1024);
  const firsts = Array.from({ length: 5 }, () => {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), FIRST_CALL], { encoding: 'utf8' });
    const ms = Number.parseFloat(child.stdout);
    if (child.status !== 0 || !Number.isFinite(ms)) throw new Error(`web bench: the first-call process failed: ${child.stderr.trim().split('\n')[0]}`);
    return ms;
  });
  const cold = summarize(firsts).p50;
  const warm: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 15; i++) {
    warm.push(cpuMs(() => htmlToMarkdown(html, 'https://example.com/notes')));
    bare.push(cpuMs(() => readHtml(html, NOWHERE)));
  }
  const warmP50 = summarize(warm).p50;
  const bareP50 = summarize(bare).p50;
  const out = htmlToMarkdown(html, 'https://example.com/notes').markdown.length;
  row(`fetch: 1 MB page → Markdown, CPU warm p50 (${(out / 1024).toFixed(0)} KB out)`, `${fmt(warmP50)} ms`, `${fmt(bareP50)} ms`, warmP50 / bareP50, '≤ 100 ms');
  row('fetch: 1 MB page → Markdown, CPU first call (fresh process, p50 of 5)', `${fmt(cold)} ms`, `${fmt(bareP50)} ms`, cold / bareP50, '≤ 100 ms');
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === FIRST_CALL) firstCall();
