import { defineLanguage, type Groups } from './language.js';

// PHP: classes, interfaces, traits and enums (global once declared), functions, methods and
// constants. A method or class constant marked `private` or `protected` is private.

const notHidden = (groups: Groups): boolean => !/\b(?:private|protected)\b/.test(groups.mods ?? '');

export default defineLanguage({
  name: 'php',
  extensions: ['.php'],
  rules: [
    {
      pattern: /^[ \t]*(?:(?:abstract|final|readonly)[ \t]+)*(?<kw>class|interface|trait|enum)[ \t]+(?<name>[A-Za-z_]\w*)/,
      kind: { class: 'class', interface: 'interface', trait: 'trait', enum: 'enum' },
      exported: true,
    },
    {
      pattern: /^[ \t]*(?<mods>(?:(?:public|private|protected|static|abstract|final)[ \t]+)*)function[ \t]+&?[ \t]*(?<name>[A-Za-z_]\w*)/,
      kind: 'function',
      exported: notHidden,
    },
    {
      pattern: /^[ \t]*(?<mods>(?:(?:public|private|protected|final)[ \t]+)*)const[ \t]+(?:[A-Za-z_?][\w|?\\]*[ \t]+(?=[A-Za-z_]\w*[ \t]*=))?(?<name>[A-Za-z_]\w*)[ \t]*=/,
      kind: 'constant',
      exported: notHidden,
    },
    { pattern: /^[ \t]*define\([ \t]*(?<q>['"])(?<name>[A-Za-z_]\w*)\k<q>/, kind: 'constant', exported: true },
  ],
});
