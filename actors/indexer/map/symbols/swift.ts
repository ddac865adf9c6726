import { defineLanguage, type Groups } from './language.js';

// Swift: classes, structs, enums, protocols, actors, type aliases and functions at the top level
// or one indentation level deep (members), plus top-level `let`/`var`. Swift's default access is
// `internal` (the whole module), so exported means not `private`/`fileprivate`.

const notPrivate = (groups: Groups): boolean => !/\b(?:private|fileprivate)\b/.test(groups.mods ?? '');

const MEMBER_INDENT = String.raw`(?:\t?| {0,4})`;
const MODS = String.raw`(?<mods>(?:@\w+(?:\([^)\n]*\))?[ \t]+|(?:public|open|internal|private|fileprivate|package|final|static|override|mutating|nonmutating|convenience|required|indirect|lazy|weak|unowned|dynamic|nonisolated|optional|class(?=[ \t]+(?:func|var|let)\b))(?:\([^)\n]*\))?[ \t]+)*)`;

export default defineLanguage({
  name: 'swift',
  extensions: ['.swift'],
  rules: [
    {
      pattern: new RegExp(String.raw`^${MEMBER_INDENT}${MODS}(?<kw>class|struct|enum|protocol|actor|typealias)[ \t]+(?!(?:func|var|let)\b)(?<name>[A-Za-z_]\w*)`),
      kind: { class: 'class', struct: 'struct', enum: 'enum', protocol: 'protocol', actor: 'class', typealias: 'type' },
      exported: notPrivate,
    },
    { pattern: new RegExp(String.raw`^${MEMBER_INDENT}${MODS}func[ \t]+(?<name>[A-Za-z_]\w*)`), kind: 'function', exported: notPrivate },
    {
      pattern: new RegExp(String.raw`^${MODS}(?<kw>let|var)[ \t]+(?<name>[A-Za-z_]\w*)`),
      kind: { let: 'constant', var: 'variable' },
      exported: notPrivate,
    },
  ],
});
