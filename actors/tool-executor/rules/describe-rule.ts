import { homedir } from 'node:os';
import type { RuleMatch } from './permission-rules.js';
import { isHookRule } from './hook-ruling.js';

/** A rule as one phrase the model and the user read: `Bash(git push:*) in ~/.config/reika/settings.json`. */
export function describeRule(rule: Pick<RuleMatch, 'rule' | 'source'>, home = homedir()): string {
  return `${rule.rule} in ${shortPath(rule.source.file, home)}`;
}

/** Why an ask rule (or a PreToolUse hook's ask) holds a call for a person, one phrase. */
export function asksFirst(rule: Pick<RuleMatch, 'rule' | 'source'>, home = homedir()): string {
  if (isHookRule(rule)) return `a PreToolUse hook asks first: ${rule.source.file}`;
  return `the permission rule ${describeRule(rule, home)} asks first`;
}

/** A path under the home folder as `~/…`. */
export function shortPath(file: string, home = homedir()): string {
  return home !== '/' && file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file;
}
