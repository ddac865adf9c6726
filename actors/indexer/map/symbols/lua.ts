import { defineLanguage } from './language.js';

// Lua: functions at the top level. `local function f` and `local f = function` are private;
// global functions and module fields (`function M.f`, `function M:f`, `M.f = function`) are
// exported under their last name part.

export default defineLanguage({
  name: 'lua',
  extensions: ['.lua'],
  rules: [
    { pattern: /^local[ \t]+function[ \t]+(?<name>[A-Za-z_]\w*)/, kind: 'function', exported: false },
    { pattern: /^local[ \t]+(?<name>[A-Za-z_]\w*)[ \t]*=[ \t]*function\b/, kind: 'function', exported: false },
    { pattern: /^function[ \t]+(?:[A-Za-z_]\w*[.:])*(?<name>[A-Za-z_]\w*)[ \t]*\(/, kind: 'function', exported: true },
    {
      pattern: /^(?:[A-Za-z_]\w*\.)*(?<name>[A-Za-z_]\w*)[ \t]*=[ \t]*function\b/,
      kind: 'function',
      exported: true,
    },
  ],
});
