import test from 'ava';
import { readHtml } from '../../../../actors/tool-executor/web/html-tokens.js';

/** The events a page gives, as one line: `<a href="/x">`, `"text"`, `</a>`. */
function events(html: string, xhtml = false): string {
  const out: string[] = [];
  const sink = {
    open: (name: string, attribs: Readonly<Record<string, string>>) => out.push(`<${name}${Object.entries(attribs).map(([key, value]) => ` ${key}=${JSON.stringify(value)}`).join('')}>`),
    text: (text: string) => out.push(JSON.stringify(text)),
    close: (name: string) => out.push(`</${name}>`),
  };
  readHtml(html, sink, xhtml);
  return out.join(' ');
}

test('tags, text and entities: names lower case, entities decoded in text and attribute values', (t) => {
  t.is(events('<P Class="x">a &amp; b&nbsp;c &copy 2026</P>'), '<p class="x"> "a & b\u00a0c © 2026" </p>');
  t.is(events('<a href="/q?a=1&amp;b=2" title=\'it"s\' data-x=bare-value hidden>x</a>'), '<a href="/q?a=1&b=2" title="it\\"s" data-x="bare-value" hidden=""> "x" </a>');
  // An attribute's value holds `>` when quoted; the first of two same names wins; a `<` that starts nothing is text.
  t.is(events('<img alt="a > b" ALT="second" src=/i.png>x < y'), '<img alt="a > b" src="/i.png"> </img> "x < y"');
});

test('comments, declarations, processing instructions and CDATA give nothing', (t) => {
  t.is(events('a<!-- one -->b<!-->c<!--->d<!-- two --!>e<!doctype html>f<?xml version="1.0"?>g<![CDATA[h]]>i</>j</1 bogus>k'), '"a" "b" "c" "d" "e" "f" "g" "i" "j" "k"');
  t.is(events('x<!-- never closed <p>hidden</p>'), '"x"');
});

test('script, style and the other raw text elements hold text up to their own end tag, in any case', (t) => {
  t.is(events('<script>if (a<b && c>d) x("</p>")</SCRIPT >after'), '<script> "if (a<b && c>d) x(\\"</p>\\")" </script> "after"');
  t.is(events('<style>p{}</style_x></style>'), '<style> "p{}</style_x>" </style>');
  // Title and textarea decode entities; their markup is text.
  t.is(events('<title>A &amp; <b>B</b></title>'), '<title> "A & <b>B</b>" </title>');
  t.is(events('<xmp><b>&amp;</b></xmp>'), '<xmp> "<b>&amp;</b>" </xmp>');
  t.is(events('<plaintext>a</plaintext><b>'), '<plaintext> "a</plaintext><b>" </plaintext>');
  t.is(events('<script>never closed'), '<script> "never closed" </script>');
});

test('as in a browser, `/>` closes only SVG and MathML elements, so `<div hidden/>` hides what follows', (t) => {
  t.is(events('<div hidden/>secret</div>shown'), '<div hidden=""> "secret" </div> "shown"');
  t.is(events('<svg><path d="M0"/><title>t</title></svg>x'), '<svg> <path d="M0"> </path> <title> "t" </title> </svg> "x"');
  t.is(events('<script/>hidden</script>'), '<script> "hidden" </script>');
  // A page served as XHTML is XML to a browser: there `/>` closes any element.
  t.is(events('<script src="a.js"/><p>shown</p><div/>after', true), '<script src="a.js"> </script> <p> "shown" </p> <div> </div> "after"');
});

test('void elements close at once; implied closes follow the paragraph, list and table rules', (t) => {
  t.is(events('<p>a<br>b<hr>c'), '<p> "a" <br> </br> "b" </p> <hr> </hr> "c"');
  t.is(events('<ul><li>a<li>b</ul>'), '<ul> <li> "a" </li> <li> "b" </li> </ul>');
  t.is(events('<table><tr><td>1<td>2<tr><td>3</table>'), '<table> <tr> <td> "1" </td> <td> "2" </td> </tr> <tr> <td> "3" </td> </tr> </table>');
  t.is(events('<p>a<div>b</div>'), '<p> "a" </p> <div> "b" </div>');
  // An end tag closes what is open inside it; one with nothing to close is ignored, except </p> and </br>.
  t.is(events('<div><span><b>x</div>y</span></p></br>'), '<div> <span> <b> "x" </b> </span> </div> "y" <p> </p> <br> </br>');
  t.is(events('<form>a<form>b</form>c'), '<form> "a" "b" </form> "c"');
  t.is(events('<image src=/i.png>'), '<img src="/i.png"> </img>');
});

test('a tag left open at the end of the page is dropped; the text before it is kept', (t) => {
  t.is(events('<p>text <a href="/x'), '<p> "text " </p>');
  t.is(events('<p>text <b'), '<p> "text " </p>');
  t.is(events('text </p'), '"text "');
});

test('on 2,000 generated pages of tags, attributes, comments and raw text, every element opened is closed, innermost first', (t) => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 48271) % 2147483647;
    return seed % n;
  };
  const pick = <T>(list: readonly T[]): T => list[random(list.length)]!;
  const tags = ['p', 'div', 'a', 'b', 'li', 'ul', 'td', 'tr', 'table', 'br', 'img', 'script', 'style', 'title', 'textarea', 'svg', 'math', 'form', 'select', 'option', 'h1', 'dd', 'dt', 'P', 'Image', 'plaintext'];
  const bits = [' href="/x"', " alt='a > b'", ' hidden', ' class=x', ' title="unclosed', '/', ' a=&amp;b', ' =x'];
  const loose = ['text', ' a &amp; b ', '<', '</p>', '</br>', '</>', '<!-- c -->', '<!-->', '<!doctype html>', '<?x?>', '<![CDATA[y]]>', '</1>', '&copy'];
  const page = (depth: number): string => {
    let html = '';
    for (let i = random(4); i >= 0; i--) {
      if (depth > 3 || random(3) === 0) html += pick(loose);
      else {
        const tag = pick(tags);
        html += `<${tag}${random(2) ? pick(bits) : ''}>${page(depth + 1)}${random(6) ? `</${tag}>` : ''}`;
      }
    }
    return html;
  };
  for (let n = 0; n < 2000; n++) {
    const html = page(0);
    const open: string[] = [];
    let broken: string | undefined;
    readHtml(html, {
      open: (name) => open.push(name),
      text: (text) => {
        if (text === '') broken ??= 'an empty text';
      },
      close: (name) => {
        if (open.pop() !== name) broken ??= `</${name}> closed out of order`;
      },
    });
    if (open.length > 0) broken ??= `left open: ${open.join(' ')}`;
    if (broken) return t.fail(`${broken} in ${JSON.stringify(html)}`);
  }
  t.pass();
});

test('elements nest at most 512 deep: deeper ones open beside the innermost, so end tags search a bounded stack', (t) => {
  let depth = 0;
  let deepest = 0;
  readHtml(`${'<div>'.repeat(2000)}x${'</span>'.repeat(2000)}`, {
    open: () => (deepest = Math.max(deepest, ++depth)),
    text: () => {},
    close: () => depth--,
  });
  t.is(deepest, 512);
  t.is(depth, 0);
});
