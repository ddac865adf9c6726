import { defineLanguage, type Groups } from './language.js';

// C#: classes, interfaces, structs, enums, records and delegates at any depth; methods and
// properties that carry at least one modifier. Exported means `public` (`internal` stays inside
// its assembly).

const isPublic = (groups: Groups): boolean => /\bpublic\b/.test(groups.mods ?? '');

const ATTRIBUTE = String.raw`\[[^\]\n]*\][ \t]*`;
const MODIFIER = String.raw`(?:public|private|protected|internal|static|sealed|abstract|partial|readonly|unsafe|new|override|virtual|async|extern|file|required|volatile)[ \t]+`;
const TYPE = String.raw`[\w.]+(?:<[^\n(]*>)?(?:\[[ ,]*\])*\??`;

export default defineLanguage({
  name: 'csharp',
  extensions: ['.cs'],
  rules: [
    {
      pattern: new RegExp(
        String.raw`^[ \t]*(?<mods>(?:${ATTRIBUTE})*(?:${MODIFIER})*)(?<kw>class|interface|struct|enum|record(?:[ \t]+(?:struct|class))?)[ \t]+(?<name>[A-Za-z_]\w*)`,
      ),
      kind: { class: 'class', interface: 'interface', struct: 'struct', enum: 'enum', record: 'class', 'record struct': 'struct', 'record class': 'class' },
      exported: isPublic,
    },
    {
      pattern: new RegExp(String.raw`^[ \t]*(?<mods>(?:${ATTRIBUTE})*(?:${MODIFIER})*)delegate[ \t]+${TYPE}[ \t]+(?<name>[A-Za-z_]\w*)`),
      kind: 'type',
      exported: isPublic,
    },
    {
      pattern: new RegExp(
        String.raw`^[ \t]+(?<mods>(?:${ATTRIBUTE})*(?:${MODIFIER})+)(?!class\b|interface\b|struct\b|enum\b|record\b|delegate\b|event\b|const\b)${TYPE}[ \t]+(?<name>[A-Za-z_]\w*)[ \t]*(?:<[^>\n]*>)?[ \t]*(?<kw>\(|\{|=>)`,
      ),
      kind: { '(': 'method', '{': 'variable', '=>': 'variable' },
      exported: isPublic,
    },
  ],
});
