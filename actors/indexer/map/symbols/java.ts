import { defineLanguage, type Groups } from './language.js';

// Java: classes, interfaces, enums, records and annotation types at any depth, and methods that
// carry at least one modifier (so statements and calls never look like declarations). Exported
// means `public`; package-private members without modifiers are not listed.

const isPublic = (groups: Groups): boolean => /\bpublic\b/.test(groups.mods ?? '');

const ANNOTATION = String.raw`@[A-Za-z_$][\w$.]*(?:\([^)\n]*\))?[ \t]+`;
const MODIFIER = String.raw`(?:public|protected|private|static|final|abstract|sealed|non-sealed|strictfp|synchronized|native|default|transient|volatile)[ \t]+`;

export default defineLanguage({
  name: 'java',
  extensions: ['.java'],
  rules: [
    {
      pattern: new RegExp(
        String.raw`^[ \t]*(?<mods>(?:${ANNOTATION}|${MODIFIER})*)(?<kw>class|interface|enum|record|@interface)[ \t]+(?<name>[A-Za-z_$][\w$]*)`,
      ),
      kind: { class: 'class', interface: 'interface', enum: 'enum', record: 'class', '@interface': 'interface' },
      exported: isPublic,
    },
    {
      pattern: new RegExp(
        String.raw`^[ \t]+(?<mods>(?:${ANNOTATION})*(?:${MODIFIER})+)(?:<[^>\n]+>[ \t]+)?[\w$.]+(?:<[^\n(]*>)?(?:\[\])*[ \t]+(?<name>[A-Za-z_$][\w$]*)[ \t]*\(`,
      ),
      kind: 'method',
      exported: isPublic,
    },
  ],
});
