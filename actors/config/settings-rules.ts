import type { RuleEffect } from '../tool-executor/rules/rule.js';
import { ConfigError } from '../settings/parse.js';
import { updateSettingsFile } from './settings-files.js';

// Permission rules written into a settings file ("Always" in the approval menu, `/permissions add`
// and `remove`, an editor's "Always allow"), through the one writer of settings files: every other
// key, comment and line stays as it was.

/** Adds `rules` to the file's `permissions.<effect>` (those already there are left as they are); returns the ones added. */
export function addRules(file: string, effect: RuleEffect, rules: readonly string[]): string[] {
  let added: string[] = [];
  updateSettingsFile(file, (settings) => {
    const permissions = objectAt(settings, 'permissions', file);
    const list = listAt(permissions, effect, file);
    added = rules.filter((rule, i) => !list.includes(rule) && rules.indexOf(rule) === i);
    list.push(...added);
  });
  return added;
}

/** Removes `rule` from the file's `permissions.<effect>`; false when it was not there. */
export function removeRule(file: string, effect: RuleEffect, rule: string): boolean {
  let removed = false;
  updateSettingsFile(file, (settings) => {
    const permissions = settings.permissions;
    if (permissions === null || typeof permissions !== 'object' || Array.isArray(permissions)) return;
    const list = (permissions as Record<string, unknown>)[effect];
    if (!Array.isArray(list) || !list.includes(rule)) return;
    (permissions as Record<string, unknown>)[effect] = list.filter((item) => item !== rule);
    removed = true;
  });
  return removed;
}

function objectAt(parent: Record<string, unknown>, key: string, file: string): Record<string, unknown> {
  const value = parent[key];
  if (value === undefined) return (parent[key] = {}) as Record<string, unknown>;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${file}: "${key}" is not an object; nothing was written`);
  return value as Record<string, unknown>;
}

function listAt(parent: Record<string, unknown>, key: string, file: string): unknown[] {
  const value = parent[key];
  if (value === undefined) return (parent[key] = []) as unknown[];
  if (!Array.isArray(value)) throw new ConfigError(`${file}: "permissions.${key}" is not a list; nothing was written`);
  return value;
}
