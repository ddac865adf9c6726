import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type * as Jsonc from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import { declarationOf, PROFILE_FIELDS, profilePrefix, SETTINGS, type SettingDeclaration } from '../settings/declarations.js';
import { ConfigError, parseSetting } from '../settings/parse.js';
import type { SettingsLayer, SettingsScope } from './settings-layer.js';

// The settings files (SPEC §17): `~/.config/reika/settings.json` (user), `.reika/settings.json`
// (project) and `.reika/settings.local.json` (local) at the project root. Each is read into the
// same `REIKA_*` values the environment gives (a key per setting: `declarations.ts`), plus its
// `permissions` and `hooks` blocks as written, for the rules and hooks. A broken file, an unknown
// key or a value of the wrong kind is one line naming the file, the key and the line; the rest of
// the file loads (the parser recovers after a syntax error).

export interface SettingsFile {
  layer: SettingsLayer;
  /** The settings it sets, as environment values (`REIKA_SANDBOX: 'off'`); lists joined by commas. */
  values: Record<string, string>;
  /** One line each: what could not be used, and why. */
  notes: string[];
}

let parser: typeof Jsonc | undefined;
/** jsonc-parser, loaded with the first settings file there is (most sessions start with none). */
function jsonc(): typeof Jsonc {
  return (parser ??= createRequire(import.meta.url)('jsonc-parser') as typeof Jsonc);
}

/** Keys a settings file may hold that are not settings. */
const OTHER_KEYS = new Set(['$schema', 'permissions', 'hooks']);

/** The three files' paths: the user's in its folder, the project's at its root. */
export function settingsPaths(userFolder: string, projectRoot: string): Record<SettingsScope, string> {
  return { user: join(userFolder, 'settings.json'), project: join(projectRoot, '.reika', 'settings.json'), local: join(projectRoot, '.reika', 'settings.local.json') };
}

/** Reads one settings file; a missing one is an empty layer, never an error. */
export function readSettingsFile(scope: SettingsScope, path: string, trusted: boolean): SettingsFile {
  const layer: SettingsLayer = { scope, path, exists: false, trusted };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { layer, values: {}, notes: [] };
  }
  const notes: string[] = [];
  const lines = lineStarts(text);
  const at = (offset: number) => `${path}:${lineOf(lines, offset)}`;
  const errors: ParseError[] = [];
  const root = jsonc().parseTree(text, errors, { disallowComments: false, allowTrailingComma: true, allowEmptyContent: true });
  for (const error of errors.slice(0, 3)) notes.push(`${at(error.offset)}: not valid JSON (${describeError(jsonc().printParseErrorCode(error.error))}); the rest of the file is read`);
  if (!root) return { layer, values: {}, notes };
  if (root.type !== 'object') {
    notes.push(`${at(root.offset)}: a settings file holds one JSON object; ignored`);
    return { layer, values: {}, notes };
  }
  const values: Record<string, string> = {};
  const found: SettingsLayer = { ...layer, exists: true };
  for (const property of root.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (!keyNode || !valueNode) continue;
    const key = String(keyNode.value);
    const where = at(keyNode.offset);
    if (key === 'permissions' || key === 'hooks') {
      const block = jsonc().getNodeValue(valueNode) as unknown;
      if (block !== null && typeof block === 'object' && !Array.isArray(block)) found[key] = block as Record<string, unknown>;
      else notes.push(`${where}: "${key}" must be an object; ignored`);
      continue;
    }
    if (OTHER_KEYS.has(key)) continue;
    if (key === 'profiles') {
      readProfiles(valueNode, at, values, notes);
      continue;
    }
    const group = SETTINGS.filter((setting) => setting.key.startsWith(`${key}.`));
    if (group.length > 0 && valueNode.type === 'object') {
      for (const inner of valueNode.children ?? []) {
        const [innerKey, innerValue] = inner.children ?? [];
        if (!innerKey || !innerValue) continue;
        setValue(`${key}.${String(innerKey.value)}`, innerValue, at(innerKey.offset), values, notes);
      }
      continue;
    }
    setValue(key, valueNode, where, values, notes);
  }
  return { layer: found, values, notes };
}

/** `profiles: {name: {model, baseUrl, apiKey, contextWindow, vision, engine}}` → REIKA_PROFILES and REIKA_<NAME>_*. */
function readProfiles(node: Node, at: (offset: number) => string, values: Record<string, string>, notes: string[]): void {
  if (node.type !== 'object') {
    notes.push(`${at(node.offset)}: "profiles" must be an object of profiles by name ({"fast": {"model": "…"}}); ignored`);
    return;
  }
  const names: string[] = [];
  for (const property of node.children ?? []) {
    const [nameNode, body] = property.children ?? [];
    if (!nameNode || !body) continue;
    const name = String(nameNode.value);
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name) || body.type !== 'object') {
      notes.push(`${at(nameNode.offset)}: profiles."${name}" must be a name of letters, digits, - or _ holding an object; ignored`);
      continue;
    }
    names.push(name);
    for (const field of body.children ?? []) {
      const [fieldKey, fieldValue] = field.children ?? [];
      if (!fieldKey || !fieldValue) continue;
      const declared = PROFILE_FIELDS.find((f) => f.key === fieldKey.value);
      if (!declared) {
        notes.push(`${at(fieldKey.offset)}: unknown key profiles.${name}.${String(fieldKey.value)} (a profile takes ${PROFILE_FIELDS.map((f) => f.key).join(', ')}); ignored`);
        continue;
      }
      const env = `${profilePrefix(name)}${declared.field}`;
      const declaration = declarationOf(env, [name])!;
      const value = asEnvValue(fieldValue, declaration);
      if (value === undefined) notes.push(`${at(fieldKey.offset)}: profiles.${name}.${declared.key} must be ${expected(declaration)}; ignored`);
      else if (check(env, declaration, value, at(fieldKey.offset), `profiles.${name}.${declared.key}`, notes)) values[env] = value;
    }
  }
  if (names.length > 0) values.REIKA_PROFILES = names.join(',');
}

function setValue(key: string, node: Node, where: string, values: Record<string, string>, notes: string[]): void {
  const declaration = SETTINGS.find((setting) => setting.key === key) as SettingDeclaration | undefined;
  if (!declaration || declaration.from === 'environment') {
    notes.push(`${where}: unknown key "${key}" (docs/settings.md lists them); ignored`);
    return;
  }
  const value = asEnvValue(node, declaration);
  if (value === undefined) {
    notes.push(`${where}: "${key}" must be ${expected(declaration)}; ignored`);
    return;
  }
  if (check(declaration.env, declaration, value, where, key, notes)) values[declaration.env] = value;
}

/** Whether the value parses; if not, a note in the file's words (its key, not the variable). */
function check(env: string, declaration: SettingDeclaration, value: string, where: string, key: string, notes: string[]): boolean {
  try {
    parseSetting(env, declaration, value);
    return true;
  } catch (error) {
    notes.push(`${where}: ${(error as Error).message.replace(env, `"${key}"`)}; ignored`);
    return false;
  }
}

/** A JSON value as the string the environment would hold, or undefined when its kind is wrong. */
function asEnvValue(node: Node, declaration: Pick<SettingDeclaration, 'type'>): string | undefined {
  const value = jsonc().getNodeValue(node) as unknown;
  switch (declaration.type.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 'on' : 'off') : typeof value === 'string' ? value : undefined;
    case 'count':
    case 'duration':
      return typeof value === 'number' || typeof value === 'string' ? String(value) : undefined;
    case 'list':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join(',') : typeof value === 'string' ? value : undefined;
    default:
      return typeof value === 'string' ? value : undefined;
  }
}

function expected(declaration: Pick<SettingDeclaration, 'type'>): string {
  switch (declaration.type.kind) {
    case 'boolean':
      return 'true or false';
    case 'count':
      return 'a number';
    case 'duration':
      return 'a number of milliseconds (or a string such as "30s")';
    case 'list':
      return 'a list of strings';
    default:
      return 'a string';
  }
}

function describeError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

/**
 * Changes a settings file in place (`edit` gets the parsed object and changes it), keeping the
 * rest of it, its comments and its layout where it can: the one writer of settings files (rules
 * from "Always" and `/permissions`, `settings-rules.ts`). Written through a temporary file, private
 * (0600); an edit that changes nothing writes nothing. Creates the file and its folder when
 * missing; a `.reika/settings.local.json` reika creates is added to the repository's
 * `.git/info/exclude`, so it is never committed. A file that is not valid JSON is not touched:
 * the error (a ConfigError) says where it is broken.
 */
export function updateSettingsFile(path: string, edit: (settings: Record<string, unknown>) => void): void {
  const created = !existsSync(path);
  const text = created ? '{}\n' : readFileSync(path, 'utf8');
  const errors: ParseError[] = [];
  const tree = jsonc().parseTree(text, errors, { allowTrailingComma: true, allowEmptyContent: true });
  if (errors.length > 0) throw new ConfigError(`${path} is not valid JSON (line ${lineOf(lineStarts(text), errors[0]!.offset)}); fix it first, nothing was written`);
  if (tree && tree.type !== 'object') throw new ConfigError(`${path} does not hold a JSON object; fix it first, nothing was written`);
  const before = (tree ? jsonc().getNodeValue(tree) : {}) as Record<string, unknown>;
  const after = structuredClone(before);
  edit(after);
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  if (changed.length === 0) return;
  let updated = text.trim() === '' ? '{}\n' : text;
  for (const key of changed) updated = jsonc().applyEdits(updated, jsonc().modify(updated, [key], after[key], { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } }));
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, updated.endsWith('\n') ? updated : `${updated}\n`, { mode: 0o600 });
  renameSync(temp, path);
  if (created && path.endsWith(join('.reika', 'settings.local.json'))) excludeFromGit(dirname(dirname(path)), path);
}

/** Adds `path` to the repository's `.git/info/exclude` (a worktree's common folder too), once. */
function excludeFromGit(root: string, path: string): void {
  const gitDir = gitFolder(root);
  if (!gitDir) return;
  const exclude = join(gitDir, 'info', 'exclude');
  const line = `/${relative(root, path).split('\\').join('/')}`;
  let current = '';
  try {
    current = readFileSync(exclude, 'utf8');
  } catch {
    // no exclude file yet
  }
  if (current.split(/\r?\n/).includes(line)) return;
  mkdirSync(dirname(exclude), { recursive: true });
  appendFileSync(exclude, `${current === '' || current.endsWith('\n') ? '' : '\n'}${line}\n`);
}

/** The `.git` folder of `root` (following a worktree's `gitdir:` file to its common folder). */
function gitFolder(root: string): string | undefined {
  const dotGit = join(root, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    if (!pointer) return undefined;
    const gitDir = resolve(root, pointer);
    const common = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    return resolve(gitDir, common);
  } catch {
    return undefined;
  }
}
