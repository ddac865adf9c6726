import { declarationOf, type SettingDeclaration } from '../settings/declarations.js';
import { parseList, parseSetting } from '../settings/parse.js';
import { isProjectSource, sourceLabel, type Layer, type Source } from './sources.js';

/** A project's value that was not applied, and why. */
export interface IgnoredSetting {
  env: string;
  value: string;
  source: Source;
  /** `loosens`/`redirects`: the project is not trusted; `user-only`: only the user may set it. */
  why: 'loosens' | 'redirects' | 'user-only';
}

export interface MergedLayers {
  raw: Record<string, string>;
  /** Where each value came from (several for a merged list). */
  sources: Record<string, Source[]>;
  ignored: IgnoredSetting[];
}

/**
 * The sources merged into one set of raw values, the strongest first (SPEC §16, §17): a value set
 * by a stronger source wins; lists are merged from every source. A project's sources (its `.env`,
 * `.reika/settings.json`, `.reika/settings.local.json`) may tighten anything, but until the project
 * is trusted they may not loosen safety (a less strict value than the user's) nor redirect code
 * (server, model, key, profiles); what they may not set is left out and listed.
 */
export function mergeLayers(layers: readonly Layer[], trusted: boolean): MergedLayers {
  const raw: Record<string, string> = {};
  const sources: Record<string, Source[]> = {};
  const ignored: IgnoredSetting[] = [];
  const keys = new Set(layers.flatMap((layer) => Object.keys(layer.values)));
  // Profile names first: a profile's own variables are declared by them.
  const names = () => (raw.REIKA_PROFILES ? parseList(raw.REIKA_PROFILES) : []);
  const order = ['REIKA_PROFILES', ...[...keys].filter((key) => key !== 'REIKA_PROFILES')];
  for (const key of order) {
    if (!keys.has(key)) continue;
    const declaration = declarationOf(key, names());
    const allowed: { layer: Layer; value: string }[] = [];
    for (const layer of layers) {
      const value = layer.values[key];
      if (value === undefined) continue;
      if (declaration?.from === 'environment' && layer.kind !== 'environment') continue;
      if (isProjectSource(layer.kind) && declaration) {
        const why = refusal(declaration, key, value, trusted, layers);
        if (why) {
          // Only a value that would have counted is worth a line: a stronger source set it anyway for a single value.
          if (declaration.type.kind === 'list' || allowed.length === 0) ignored.push({ env: key, value, source: sourceOf(layer), why });
          continue;
        }
      }
      allowed.push({ layer, value });
    }
    if (allowed.length === 0) continue;
    if (declaration?.type.kind === 'list') {
      raw[key] = [...new Set(allowed.flatMap(({ value }) => parseList(value)))].join(',');
      sources[key] = allowed.map(({ layer }) => sourceOf(layer));
    } else {
      raw[key] = allowed[0]!.value;
      sources[key] = [sourceOf(allowed[0]!.layer)];
    }
  }
  return { raw, sources, ignored };
}

/** Why a project's value may not be applied, or undefined when it may. */
function refusal(declaration: SettingDeclaration, key: string, value: string, trusted: boolean, layers: readonly Layer[]): IgnoredSetting['why'] | undefined {
  if (declaration.from === 'user') return 'user-only';
  if (trusted || !declaration.guard) return undefined;
  if (declaration.guard === 'redirects') return 'redirects';
  // Loosens: applied when at least as strict as what the user's sources (or the default) give.
  const users = layers.find((layer) => !isProjectSource(layer.kind) && layer.values[key] !== undefined)?.values[key] ?? declaration.default;
  return strictness(declaration, key, value) >= strictness(declaration, key, users) ? undefined : 'loosens';
}

/** A value's place in the declaration's strictness order (-1 when it does not parse: never stricter). */
function strictness(declaration: SettingDeclaration, key: string, value: string | undefined): number {
  if (value === undefined || !declaration.strictness) return -1;
  try {
    const parsed = parseSetting(key, declaration, value);
    return declaration.strictness.indexOf(typeof parsed === 'boolean' ? (parsed ? 'on' : 'off') : String(parsed));
  } catch {
    return -1;
  }
}

function sourceOf(layer: Layer): Source {
  return layer.path ? { kind: layer.kind, path: layer.path } : { kind: layer.kind };
}

/** One line for what a project was not allowed to set. */
export function describeIgnored(item: IgnoredSetting, secret: boolean): string {
  const shown = secret ? item.env : `${item.env}=${item.value}`;
  const from = sourceLabel(item.source);
  switch (item.why) {
    case 'user-only':
      return `ignored ${shown} from ${from}: only the environment or your own settings may set it`;
    case 'loosens':
      return `ignored ${shown} from ${from}: the project is not trusted to loosen safety (trust it when asked, or REIKA_TRUST_PROJECT=1)`;
    case 'redirects':
      return `ignored ${shown} from ${from}: the project is not trusted to change the server, model, key or profiles (trust it when asked, or REIKA_TRUST_PROJECT=1)`;
  }
}
