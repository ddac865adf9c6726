import { homedir } from 'node:os';
import { isInsideProject, displayPath } from '../files/paths.js';
import { rulesFor } from '../shell/danger-rules.js';
import { unwrapCommandLine } from '../shell/unwrap.js';
import { normalise } from './command-pattern.js';
import type { RuleSubject } from './permission-rules.js';

/**
 * The rules an "Always" answer writes for a call, in Claude Code's syntax: for a command line one
 * per simple command — its program and first argument as a prefix (`Bash(git push:*)`,
 * `Bash(node build.js:*)`, `Bash(make:*)` for `make -j4`),
 * or the exact command when it is dangerous in itself (`Bash(rm -rf build)`); for a file the path
 * (`Edit(./src/app.ts)`, `Edit(//etc/hosts)`); for a fetch its domain; else the tool. None when the
 * line hides what it runs (then "Always" lasts the session only).
 */
export function suggestRules(subject: RuleSubject, root: string, home = homedir()): string[] {
  const { tool } = subject;
  if (subject.command !== undefined) return commandRules(subject.command, root, home);
  if (subject.paths && subject.paths.length > 0) {
    const path = subject.paths[0]!;
    const name = tool === 'edit' || tool === 'write' || tool === 'multi_edit' ? 'Edit' : tool === 'list' ? 'LS' : capitalise(tool);
    return [`${name}(${isInsideProject(root, path) ? `./${displayPath(root, path)}` : `/${path}`})`];
  }
  if (subject.domain !== undefined) return [`WebFetch(domain:${subject.domain})`];
  return [tool.startsWith('mcp__') ? tool : capitalise(tool)];
}

function commandRules(line: string, root: string, home: string): string[] {
  const { commands, errors, hazards } = unwrapCommandLine(line, home);
  if (errors.length > 0 || hazards.length > 0) return [];
  const rules = new Set<string>();
  for (const command of commands) {
    if (command.words.length === 0) continue;
    if (command.computedName || command.unknownScript !== undefined) return [];
    if (['cd', 'pushd', 'popd', 'true', 'false', ':'].includes(command.name) && !command.elevated) continue;
    const words = [...(command.elevated && command.elevated !== command.name ? [command.elevated] : []), ...command.words.map((w) => w.text)];
    if (rulesFor(command, { cwd: root, root }).length > 0) {
      rules.add(`Bash(${normalise(words.join(' '))})`);
      continue;
    }
    const start = command.elevated && command.elevated !== command.name ? 2 : 1;
    const verb = words[start];
    // The sub-command or script (`git push`, `node build.js`), not an option or a quoted argument.
    const prefix = verb !== undefined && /^[\w./@+-][\w:./@+-]*$/.test(verb) && !verb.startsWith('-') ? words.slice(0, start + 1) : words.slice(0, start);
    rules.add(`Bash(${normalise(prefix.join(' '))}:*)`);
  }
  return [...rules];
}

function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
