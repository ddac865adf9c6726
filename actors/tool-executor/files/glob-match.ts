/**
 * Glob patterns for `glob` and `grep{glob}`: `*` (not across `/`), `**` (any depth), `?`,
 * `[abc]`/`[!a-z]` and `{a,b}`. A pattern without `/` matches the file name at any depth, as
 * `.gitignore` does, so `*.ts` finds every TypeScript file.
 */
export function compileGlob(pattern: string): (relPath: string) => boolean {
  const clean = pattern.replace(/^\.\//, '');
  const basenameOnly = !clean.includes('/');
  const regex = new RegExp(`^${translate(clean)}$`);
  if (basenameOnly) return (rel) => regex.test(rel.slice(rel.lastIndexOf('/') + 1));
  return (rel) => regex.test(rel);
}

function translate(glob: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        i++;
        if (glob[i + 1] === '/' && atStart) {
          i++;
          out += '(?:.*/)?';
        } else {
          out += '.*';
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else if (c === '\\' && i + 1 < glob.length) {
      out += escape(glob[++i]!);
    } else {
      out += escape(c);
    }
  }
  return out + ')'.repeat(braces);
}

function escape(char: string): string {
  return /[.+^${}()|[\]\\/*?]/.test(char) ? `\\${char}` : char;
}
