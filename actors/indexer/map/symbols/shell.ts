import { defineLanguage } from './language.js';

// Shell (sh, bash, zsh, ksh): functions, `name() {…}` and `function name {…}`. No private notion.

export default defineLanguage({
  name: 'shell',
  extensions: ['.sh', '.bash', '.zsh', '.ksh'],
  rules: [
    { pattern: /^[ \t]*function[ \t]+(?<name>[A-Za-z_][\w:.-]*)[ \t]*(?:\([ \t]*\))?[ \t]*(?:\{|\(|$)/, kind: 'function', exported: true },
    { pattern: /^[ \t]*(?<name>[A-Za-z_][\w:.-]*)[ \t]*\([ \t]*\)/, kind: 'function', exported: true },
  ],
});
