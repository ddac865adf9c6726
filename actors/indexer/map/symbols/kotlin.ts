import { defineLanguage, type Groups } from './language.js';

// Kotlin: classes (data, sealed, enum, annotation, value), interfaces, objects, functions
// (extension functions too) and type aliases at the top level or one indentation level deep (the
// members of a class); `val`/`var` only at the top level. Kotlin's default is public, so
// exported means not `private`. `internal` (module-wide) counts as exported: the repo map is
// read inside the module.

const notPrivate = (groups: Groups): boolean => !/\bprivate\b/.test(groups.mods ?? '');

const MEMBER_INDENT = String.raw`(?:\t?| {0,4})`;
const MODS = String.raw`(?<mods>(?:@[\w.]+(?:\([^)\n]*\))?[ \t]+|(?:public|private|internal|protected|open|abstract|sealed|data|enum|annotation|inner|value|inline|override|suspend|tailrec|operator|infix|external|expect|actual|final|const|lateinit)[ \t]+)*)`;

export default defineLanguage({
  name: 'kotlin',
  extensions: ['.kt', '.kts'],
  rules: [
    {
      pattern: new RegExp(String.raw`^${MEMBER_INDENT}${MODS}(?<kw>class|interface|object|fun[ \t]+interface)[ \t]+(?<name>[A-Za-z_]\w*)`),
      kind: { class: 'class', interface: 'interface', object: 'class', 'fun interface': 'interface' },
      exported: notPrivate,
    },
    {
      pattern: new RegExp(String.raw`^${MEMBER_INDENT}${MODS}fun[ \t]+(?:<[^>\n]*>[ \t]*)?(?:[\w.]+(?:<[^>\n]*>)?\??\.)?(?<name>[A-Za-z_]\w*)[ \t]*\(`),
      kind: 'function',
      exported: notPrivate,
    },
    { pattern: new RegExp(String.raw`^${MEMBER_INDENT}${MODS}typealias[ \t]+(?<name>[A-Za-z_]\w*)`), kind: 'type', exported: notPrivate },
    {
      pattern: new RegExp(String.raw`^${MODS}(?<kw>val|var)[ \t]+(?:<[^>\n]*>[ \t]*)?(?:[\w.]+\.)?(?<name>[A-Za-z_]\w*)`),
      kind: { val: 'constant', var: 'variable' },
      exported: notPrivate,
    },
  ],
});
