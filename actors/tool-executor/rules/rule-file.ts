import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { RuleEffect } from './rule.js';

/**
 * Writes permission rules into a settings file ("Always" in the approval menu, `/permissions add`
 * and `remove`): the file is read, the rule added to (or taken from) `permissions.<effect>`, and
 * written back whole through a temporary file, every other key as it was. A file that is not a
 * JSON object is left alone: the change is refused with one line. A `.reika/settings.local.json`
 * reika creates is added to the repository's `.git/info/exclude`, so it is never committed.
 */

export class RuleFileError extends Error {
  override name = 'RuleFileError';
}

/** Adds `rules` to the file's `permissions.<effect>` (those already there are left as they are); returns the ones added. */
export function addRules(file: string, effect: RuleEffect, rules: readonly string[]): string[] {
  const created = !existsSync(file);
  const settings = readSettings(file);
  const permissions = objectAt(settings, 'permissions', file);
  const list = listAt(permissions, effect, file);
  const added = rules.filter((rule, i) => !list.includes(rule) && rules.indexOf(rule) === i);
  if (added.length === 0) return [];
  list.push(...added);
  writeSettings(file, settings);
  if (created && file.endsWith(`${join('.reika', 'settings.local.json')}`)) excludeFromGit(file);
  return added;
}

/** Removes `rule` from the file's `permissions.<effect>`; false when it was not there. */
export function removeRule(file: string, effect: RuleEffect, rule: string): boolean {
  if (!existsSync(file)) return false;
  const settings = readSettings(file);
  const permissions = settings.permissions;
  if (permissions === null || typeof permissions !== 'object' || Array.isArray(permissions)) return false;
  const list = (permissions as Record<string, unknown>)[effect];
  if (!Array.isArray(list) || !list.includes(rule)) return false;
  (permissions as Record<string, unknown>)[effect] = list.filter((item) => item !== rule);
  writeSettings(file, settings);
  return true;
}

function readSettings(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new RuleFileError(`${file} is not valid JSON (${(error as Error).message}); fix it first, nothing was written`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new RuleFileError(`${file} does not hold a JSON object; nothing was written`);
  return parsed as Record<string, unknown>;
}

function objectAt(parent: Record<string, unknown>, key: string, file: string): Record<string, unknown> {
  const value = parent[key];
  if (value === undefined) return (parent[key] = {}) as Record<string, unknown>;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new RuleFileError(`${file}: "${key}" is not an object; nothing was written`);
  return value as Record<string, unknown>;
}

function listAt(parent: Record<string, unknown>, key: string, file: string): unknown[] {
  const value = parent[key];
  if (value === undefined) return (parent[key] = []) as unknown[];
  if (!Array.isArray(value)) throw new RuleFileError(`${file}: "permissions.${key}" is not a list; nothing was written`);
  return value;
}

function writeSettings(file: string, settings: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** `.reika/settings.local.json` in `.git/info/exclude` of the repository it lies in, once. */
function excludeFromGit(file: string): void {
  const folder = dirname(dirname(file));
  let gitDir: string;
  let top: string;
  try {
    const out = execFileSync('git', ['rev-parse', '--absolute-git-dir', '--show-toplevel'], { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 }).trim().split('\n');
    [gitDir, top] = [out[0]!, out[1]!];
  } catch {
    return; // Not a repository: nothing to keep it out of.
  }
  const exclude = join(gitDir, 'info', 'exclude');
  const line = `/${relative(top, file).split('\\').join('/')}`;
  const current = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
  if (current.split('\n').includes(line)) return;
  mkdirSync(dirname(exclude), { recursive: true });
  appendFileSync(exclude, `${current === '' || current.endsWith('\n') ? '' : '\n'}${line}\n`);
}
