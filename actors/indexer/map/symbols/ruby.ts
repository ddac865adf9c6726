import { defineLanguage, type Found } from './language.js';

// Ruby: classes, modules, methods (`def name`, `def self.name`) and constants. Methods below a
// bare `private`/`protected` line (until `public` or the end of their class), those written
// `private def name`, and those named by `private :a, :b` are private; the rest are public.

interface Line {
  at: number;
  indent: number;
  text: string;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let at = 0;
  for (const raw of text.split('\n')) {
    const body = raw.trimStart();
    lines.push({ at, indent: raw.length - body.length, text: body.trimEnd() });
    at += raw.length + 1;
  }
  return lines;
}

/** Offsets of `def` lines that are private by a visibility section, and names made private. */
function privateDefs(text: string): { lines: Set<number>; names: Set<string> } {
  const lines = new Set<number>();
  const names = new Set<string>();
  const sections = new Map<number, boolean>();
  for (const line of linesOf(text)) {
    if (line.text === '' || line.text.startsWith('#')) continue;
    for (const indent of sections.keys()) if (indent > line.indent) sections.delete(indent);
    if (/^(?:private|protected)$/.test(line.text)) sections.set(line.indent, true);
    else if (line.text === 'public') sections.set(line.indent, false);
    else if (/^(?:private|protected)[ \t]+def\b/.test(line.text)) lines.add(line.at);
    else if (/^def[ \t]/.test(line.text) && !/^def[ \t]+self\./.test(line.text) && sections.get(line.indent)) lines.add(line.at);
    const listed = /^(?:private|protected)[ \t]+(:.*)$/.exec(line.text);
    if (listed) for (const symbol of listed[1]!.matchAll(/:([A-Za-z_]\w*[?!=]?)/g)) names.add(symbol[1]!);
  }
  return { lines, names };
}

export default defineLanguage({
  name: 'ruby',
  extensions: ['.rb', '.rake', '.gemspec'],
  rules: [
    { pattern: /^[ \t]*(?<kw>class|module)[ \t]+(?:[A-Z]\w*::)*(?<name>[A-Z]\w*)/, kind: { class: 'class', module: 'module' }, exported: true },
    {
      pattern: /^[ \t]*(?:(?:private|protected|public)[ \t]+)?def[ \t]+(?:self\.)?(?<name>[A-Za-z_]\w*[?!=]?)/,
      kind: 'method',
      exported: true,
    },
    { pattern: /^[ \t]*(?<name>[A-Z][A-Z0-9_]*)[ \t]*=(?![=~])/, kind: 'constant', exported: true },
  ],
  finish(found: Found[], text: string): Found[] {
    if (!/^[ \t]*(?:private|protected)\b/m.test(text)) return found;
    const hidden = privateDefs(text);
    return found.map((definition) =>
      definition.kind === 'method' && (hidden.lines.has(definition.at) || hidden.names.has(definition.name))
        ? { ...definition, exported: false }
        : definition,
    );
  },
});
