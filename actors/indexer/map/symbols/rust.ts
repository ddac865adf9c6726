import { defineLanguage, type Groups } from './language.js';

// Rust: `pub` items at any depth (functions, also methods in `impl` blocks; structs, enums,
// traits, type aliases, unions, modules, constants, statics), `pub use` re-exports and
// `#[macro_export]` macros. Items without `pub` count only at the top level, as private;
// `pub(crate)`, `pub(super)` and `pub(in …)` are private too (not part of the crate's API).

const plainPub = (groups: Groups): boolean => groups.vis === 'pub';

const QUALIFIERS = String.raw`(?:(?:const|async|unsafe|default|extern(?:[ \t]+"[^"\n]*")?)[ \t]+)*`;
const VIS = String.raw`(?<vis>pub(?:[ \t]*\([^)\n]*\))?)`;
const ITEM_KINDS = {
  struct: 'struct',
  enum: 'enum',
  trait: 'trait',
  type: 'type',
  union: 'struct',
  mod: 'module',
  const: 'constant',
  static: 'variable',
} as const;

/** `a::b::{C, d::E as F, self}` → C, F; `*`, `self` and `super` name nothing. */
function useNames(list: string): string[] {
  const names: string[] = [];
  for (const piece of list.split(/[{},]/)) {
    const alias = /\bas[ \t\n]+([A-Za-z_]\w*)\s*$/.exec(piece);
    const last = alias ? alias[1]! : piece.trim().split('::').pop()!.trim();
    if (last && last !== 'self' && last !== 'super' && last !== 'crate' && last !== '_') names.push(last);
  }
  return names;
}

export default defineLanguage({
  name: 'rust',
  extensions: ['.rs'],
  rules: [
    {
      pattern: new RegExp(String.raw`^[ \t]*${VIS}[ \t]+${QUALIFIERS}fn[ \t]+(?<name>[A-Za-z_]\w*)`),
      kind: 'function',
      exported: plainPub,
    },
    {
      pattern: new RegExp(String.raw`^[ \t]*${VIS}[ \t]+(?:unsafe[ \t]+|auto[ \t]+)*(?<kw>struct|enum|trait|type|union|mod|const|static)[ \t]+(?!fn\b|unsafe\b|async\b|extern\b)(?:mut[ \t]+)?(?<name>[A-Za-z_]\w*)`),
      kind: ITEM_KINDS,
      exported: plainPub,
    },
    { pattern: new RegExp(String.raw`^[ \t]*${VIS}[ \t]+use[ \t]+(?<list>[^;]{1,4000});`), kind: 'variable', exported: plainPub, split: useNames },
    {
      pattern: /^(?<export>#\[macro_export\][ \t]*\n)?macro_rules![ \t]*(?<name>[A-Za-z_]\w*)/,
      kind: 'macro',
      exported: (groups) => groups.export !== undefined,
    },
    { pattern: new RegExp(String.raw`^${QUALIFIERS}fn[ \t]+(?<name>[A-Za-z_]\w*)`), kind: 'function', exported: false },
    {
      pattern: /^(?:unsafe[ \t]+|auto[ \t]+)*(?<kw>struct|enum|trait|type|union|mod|const|static)[ \t]+(?!fn\b|unsafe\b|async\b|extern\b)(?:mut[ \t]+)?(?<name>[A-Za-z_]\w*)/,
      kind: ITEM_KINDS,
      exported: false,
    },
  ],
});
