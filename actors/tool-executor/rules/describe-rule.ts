import { homedir } from 'node:os';
import type { RuleMatch } from './permission-rules.js';

/** A rule as one phrase the model and the user read: `Bash(git push:*) in ~/.config/reika/settings.json`. */
export function describeRule(rule: Pick<RuleMatch, 'rule' | 'source'>, home = homedir()): string {
  return `${rule.rule} in ${shortPath(rule.source.file, home)}`;
}

/** A path under the home folder as `~/…`. */
export function shortPath(file: string, home = homedir()): string {
  return home !== '/' && file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file;
}
