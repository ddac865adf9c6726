import { PermissionRules } from './permission-rules.js';
import type { RuleData } from './rule.js';

/** The last few rule sets compiled, by project root and rules (a session sends the same ones with every call). */
const compiled = new Map<string, PermissionRules>();
const KEEP = 4;

/** The compiled rules a call's context carries, or undefined when it carries none. */
export function contextRules(context: { root: string; permissions?: readonly RuleData[] }): PermissionRules | undefined {
  const data = context.permissions;
  if (!data || data.length === 0) return undefined;
  const key = `${context.root}\0${JSON.stringify(data)}`;
  let rules = compiled.get(key);
  if (rules) {
    compiled.delete(key);
  } else {
    rules = PermissionRules.compile(data, context.root);
    if (compiled.size >= KEEP) compiled.delete(compiled.keys().next().value!);
  }
  compiled.set(key, rules);
  return rules;
}
