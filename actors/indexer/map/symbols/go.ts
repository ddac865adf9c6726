import { defineLanguage, type FileFacts, type Groups } from './language.js';

// Go: functions, methods, types, constants and variables at the top level, also inside grouped
// `const (…)`, `var (…)` and `type (…)` blocks. Exported means a capitalised name, as in Go.

const capitalised = (_groups: Groups, _file: FileFacts, name: string): boolean => /^\p{Lu}/u.test(name);

/** Names declared by the lines of a grouped block: the identifiers before the type or `=`. */
function blockNames(body: string): string[] {
  const names: string[] = [];
  for (const line of body.split('\n')) {
    // gofmt indents a block's entries by one tab; deeper lines belong to an entry's value.
    const head = /^(?:\t| {4})([A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*)/.exec(line);
    if (head) names.push(...head[1]!.split(',').map((name) => name.trim()));
  }
  return names;
}

export default defineLanguage({
  name: 'go',
  extensions: ['.go'],
  rules: [
    { pattern: /^func[ \t]+(?<name>[A-Za-z_]\w*)/, kind: 'function', exported: capitalised },
    { pattern: /^func[ \t]*\([^)\n]*\)[ \t]*(?<name>[A-Za-z_]\w*)/, kind: 'method', exported: capitalised },
    {
      pattern: /^type[ \t]+(?<name>[A-Za-z_]\w*)(?:\[[^\]\n]*\])?[ \t]+(?:=[ \t]*)?(?<kw>struct|interface)?/,
      kind: { struct: 'struct', interface: 'interface', '': 'type' },
      exported: capitalised,
    },
    {
      pattern: /^(?<kw>const|var)[ \t]+(?<name>[A-Za-z_]\w*)/,
      kind: { const: 'constant', var: 'variable' },
      exported: capitalised,
    },
    {
      // Body lines are indented or empty, so an unclosed block ends at the next top-level line.
      pattern: /^(?<kw>const|var|type)[ \t]*\([ \t]*\n(?<list>(?:(?:[ \t][^\n]*)?\n)*?)\)/,
      kind: { const: 'constant', var: 'variable', type: 'type' },
      exported: capitalised,
      split: blockNames,
    },
  ],
});
