import type { ListedRule } from '../../actors/session/permission-book.js';
import { shortPath } from '../../actors/tool-executor/rules/describe-rule.js';
import type { RuleEffect } from '../../actors/tool-executor/rules/rule.js';
import type { SlashCommand } from './slash-context.js';

const EFFECTS: readonly RuleEffect[] = ['deny', 'ask', 'allow'];
const SCOPES = ['local', 'project', 'user'] as const;
const USAGE = 'usage: /permissions [add [local|project|user] allow|ask|deny RULE | remove allow|ask|deny RULE]';

/**
 * `/permissions`: the session's permission rules (SPEC §17) with the file each comes from, deny
 * first; `add` writes a rule to a settings file (the project's local one unless a scope is named)
 * and puts it in force now; `remove` takes it out of the file(s) it is in.
 */
export const permissionsCommand: SlashCommand = {
  name: 'permissions',
  args: '[add|remove …]',
  help: 'list the permission rules and their files; add or remove one',
  run(context, arg) {
    const book = context.session.permissions?.();
    if (!book) return context.error('permission rules are not available in this session');
    const words = arg.trim().split(/\s+/).filter(Boolean);
    const { style } = context;
    if (words.length === 0) {
      const rules = book.list();
      const width = Math.max(0, ...rules.map((rule) => rule.rule.length));
      const line = (rule: ListedRule) => `  ${rule.effect.padEnd(5)} ${rule.rule.padEnd(width)}  ${style.dim(`${shortPath(rule.file)}${rule.inForce ? '' : ' (not in force: the project is not trusted)'}`)}`;
      return context.print(
        rules.length === 0 ? 'no permission rules' : style.bold('Permission rules') + style.dim(' (deny > ask > allow > the approvals mode)'),
        ...rules.map(line),
        ...book.notes.map((note) => style.yellow(`  ! ${note}`)),
        style.dim(`  files: ${SCOPES.map((scope) => `${scope} ${shortPath(book.fileOf(scope) ?? '?')}`).join(' · ')}`),
        style.dim('  /permissions add [local|project|user] allow|ask|deny RULE · /permissions remove allow|ask|deny RULE'),
      );
    }
    const [sub, ...rest] = words;
    const scope = SCOPES.find((s) => s === rest[0]);
    if (scope) rest.shift();
    const effect = EFFECTS.find((e) => e === rest[0]?.toLowerCase());
    const rule = rest.slice(1).join(' ');
    if ((sub !== 'add' && sub !== 'remove') || !effect || rule === '') return context.error(USAGE);
    try {
      context.print(sub === 'add' ? book.add(scope ?? 'local', effect, [rule]) : book.remove(effect, rule, scope));
    } catch (error) {
      context.error(error instanceof Error ? error.message : String(error));
    }
  },
};
