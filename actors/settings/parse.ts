import type { SettingDeclaration, SettingType } from './declarations.js';
import { errorClass } from '../../runtime/errors.js';

// The one parser of each setting type. A value that does not parse is a {@link ConfigError} of one
// line naming the setting and what it accepts.

/** A setting reika cannot use. */
export class ConfigError extends errorClass('REIKA_ERR_CONFIG') {}

const TRUE = ['on', '1', 'true', 'yes'];
const FALSE = ['off', '0', 'false', 'no', 'none'];

/** `on`/`off`, `1`/`0`, `true`/`false`, `yes`/`no` (and `none` for off), any case; undefined when it is none of them. */
export function parseBoolean(value: string): boolean | undefined {
  const word = value.trim().toLowerCase();
  return TRUE.includes(word) ? true : FALSE.includes(word) ? false : undefined;
}

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Milliseconds: `1500`, `1_500`, or with a unit `500ms`, `30s`, `5m`, `1h`; undefined when it is not one. */
export function parseDuration(value: string): number | undefined {
  const match = /^(\d[\d_]*(?:\.\d+)?)\s*(ms|s|m|h)?$/i.exec(value.trim());
  if (!match) return undefined;
  return Math.floor(Number(match[1]!.replace(/_/g, '')) * UNITS[(match[2] ?? 'ms').toLowerCase()]!);
}

/** A non-negative whole number (`32768`, `32_768`; a fraction is cut); undefined when it is not one. */
export function parseCount(value: string): number | undefined {
  const number = Number(value.trim().replace(/_/g, ''));
  return value.trim() !== '' && Number.isFinite(number) && number >= 0 ? Math.floor(number) : undefined;
}

/** One of `values` (or an alias of one), any case, in its canonical spelling. */
export function parseChoice(value: string, type: Extract<SettingType, { kind: 'choice' }>): string | undefined {
  const word = value.trim().toLowerCase();
  return type.values.includes(word) ? word : type.aliases?.[word];
}

/** `a, b,,c d` → `['a', 'b', 'c', 'd']` (commas or spaces). */
export function parseList(value: string): string[] {
  return value.split(/[\s,]+/).filter(Boolean);
}

/** What a setting of this type accepts, for the error line. */
export function accepted(type: SettingType): string {
  switch (type.kind) {
    case 'boolean':
      return 'on or off (or 1/0, true/false, yes/no)';
    case 'count':
      return 'a non-negative number';
    case 'duration':
      return 'a duration in milliseconds (or with a unit: 500ms, 30s, 5m, 1h)';
    case 'choice': {
      const values = [...type.values, ...Object.keys(type.aliases ?? {})];
      return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
    }
    case 'url':
      return 'an http:// or https:// URL';
    case 'text':
    case 'list':
      return 'text';
  }
}

/** The error line for a value a setting does not accept. */
export function malformed(name: string, type: SettingType, value: string): ConfigError {
  return new ConfigError(`${name} must be ${accepted(type)}, not "${value}"`);
}

/** A typed value of a setting, or a {@link ConfigError} naming it. */
export type Parsed = boolean | number | string | string[];

/** Parses `value` as the declaration says; throws a {@link ConfigError} naming `name` when it does not parse. */
export function parseSetting(name: string, declaration: Pick<SettingDeclaration, 'type'>, value: string): Parsed {
  const { type } = declaration;
  let parsed: Parsed | undefined;
  switch (type.kind) {
    case 'boolean':
      parsed = parseBoolean(value);
      break;
    case 'count':
      parsed = parseCount(value);
      break;
    case 'duration':
      parsed = parseDuration(value);
      break;
    case 'choice':
      parsed = parseChoice(value, type);
      break;
    case 'list':
      parsed = parseList(value);
      break;
    case 'url':
      parsed = value.trim().replace(/\/+$/, '');
      break;
    case 'text':
      parsed = value;
      break;
  }
  if (parsed === undefined) throw malformed(name, type, value);
  return parsed;
}
