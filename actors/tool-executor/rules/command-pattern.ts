/**
 * The specifier of a `Bash(…)` rule as a test on one simple command's text (its words joined by
 * single spaces), in Claude Code's forms:
 * - `git push:*` — the prefix `git push`, then nothing or a space and anything (a word boundary:
 *   `git pushx` does not match);
 * - `git * main`, `npm run *` — `*` stands for any characters, spaces too; a single `*` at the end
 *   after a space may also stand for nothing (`ls *` matches `ls`);
 * - anything else — exactly that command.
 */
export type CommandPattern = (command: string) => boolean;

export function compileCommandPattern(specifier: string): CommandPattern {
  const spec = normalise(specifier);
  if (spec.endsWith(':*') && !spec.slice(0, -2).includes('*')) {
    const prefix = spec.slice(0, -2).trimEnd();
    return (command) => command === prefix || command.startsWith(`${prefix} `);
  }
  if (!spec.includes('*')) return (command) => command === spec;
  const stars = spec.split('*').length - 1;
  const body = spec
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  // `ls *`: the one trailing wildcard may match nothing, space included.
  const source = stars === 1 && spec.endsWith(' *') ? `${body.slice(0, -' .*'.length)}(?: .*)?` : body;
  const regex = new RegExp(`^${source}$`, 's');
  return (command) => regex.test(command);
}

/** Runs of blanks as one space, none at the ends: how rules and commands are compared. */
export function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
