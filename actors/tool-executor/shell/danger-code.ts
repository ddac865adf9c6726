// Inline interpreter code (`python3 -c`, `node -e`, `perl -e`, `ruby -e`, here-docs fed to an
// interpreter) that deletes, moves or overwrites files, or runs other commands: what a shell parse
// cannot look into. A plain `print(1)` or `console.log(process.version)` passes. Matches are on
// the code's text, so a mention inside a string literal asks too: asking is the safe mistake.

interface Pattern {
  what: string;
  test: RegExp;
}

const PATTERNS: Pattern[] = [
  // Python
  { what: 'deletes files', test: /\b(shutil\.rmtree|rmtree|os\.(remove|unlink|rmdir|removedirs)|\.unlink\s*\(|\.rmdir\s*\()/ },
  { what: 'moves or replaces files', test: /\b(shutil\.(move|copy\w*)|os\.(rename|replace|truncate|ftruncate)|\.rename\s*\()/ },
  { what: 'writes files', test: /\bopen\s*\([^)]*,\s*(mode\s*=\s*)?['"][^'"]*[wax+]|\.write_(text|bytes)\s*\(|\.touch\s*\(/ },
  { what: 'runs other commands', test: /\b(os\.(system|popen|exec\w*|spawn\w*|posix_spawn\w*)|subprocess|pty\.spawn|commands\.getoutput)\b|\b(exec|eval|compile)\s*\(|__import__\s*\(/ },
  // JavaScript (node, bun, deno)
  { what: 'deletes files', test: /\b(rmSync|rmdirSync|unlinkSync|fs\.(rm|rmdir|unlink)\b|promises\.(rm|rmdir|unlink)\b|Deno\.remove|Bun\.file\([^)]*\)\.delete)/ },
  { what: 'writes files', test: /\b(writeFile|appendFile|createWriteStream|copyFile|cpSync|renameSync|truncate|ftruncate|Deno\.(writeFile|writeTextFile|rename|truncate)|Bun\.write)\w*/ },
  { what: 'runs other commands', test: /\b(child_process|execSync|execFileSync|spawnSync|Deno\.(run|Command)|Bun\.spawn|new\s+Function|process\.binding)\b|\beval\s*\(|\bimport\s*\(\s*['"]node:child_process/ },
  // Perl and Ruby
  { what: 'deletes files', test: /\b(unlink|rmdir|remove_tree|rmtree|FileUtils\.(rm\w*|remove\w*)|File\.(delete|unlink)|Dir\.(delete|rmdir|unlink))\b/ },
  { what: 'writes files', test: /\bopen\s*\(?\s*(my\s+)?\$?\w*\s*,\s*['"]?\s*(\+?[>]|\|)|\bFile\.(write|open\s*\([^)]*['"][wa])|\bIO\.write|\bFileUtils\.(mv|cp\w*|touch)\b/ },
  { what: 'runs other commands', test: /\b(system|exec|qx|spawn|popen|IO\.popen|Open3|Kernel\.(system|exec|spawn))\b\s*[({'"`]|`[^`]+`|%x[({[]/ },
  // PHP, Lua
  { what: 'runs other commands', test: /\b(shell_exec|passthru|proc_open|os\.execute|io\.popen)\s*\(/ },
  { what: 'writes or deletes files', test: /\b(file_put_contents|fopen\s*\([^)]*['"][wax]|os\.remove|io\.open\s*\([^)]*['"][wa])/ },
];

/** awk: `print > "file"`, `print | "cmd"`, `"cmd" | getline`, `system()`. */
const AWK_PATTERNS: Pattern[] = [
  { what: 'writes files', test: />>?\s*("|[A-Za-z_]\w*\s*[;}]|\()/ },
  { what: 'runs other commands', test: /\bsystem\s*\(|(?<!\|)\|(?!\|)\s*("|getline|[A-Za-z_])|\|&/ },
];

/** What the code does that a shell parse cannot see, or undefined when it only computes and prints. */
export function codeDanger(code: string, awk = false): string | undefined {
  const found = new Set<string>();
  for (const pattern of awk ? AWK_PATTERNS : PATTERNS) if (pattern.test.test(code)) found.add(pattern.what);
  if (found.size === 0) return undefined;
  const what = [...found];
  return what.length === 1 ? what[0] : `${what.slice(0, -1).join(', ')} and ${what.at(-1)}`;
}
