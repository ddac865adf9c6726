import { homedir } from 'node:os';
import { declarationOf, PROFILE_FIELDS, profilePrefix, SETTINGS } from '../../actors/settings/declarations.js';
import { loadConfig, type Config } from '../../actors/config/load-config.js';
import { ConfigError } from '../../actors/settings/parse.js';
import { sourceLabel } from '../../actors/config/sources.js';

// `reika config [--json]`: the effective settings of this folder and where each came from (the
// environment, a `.env` file, a settings file, or the default), the settings files with whether
// each is present and trusted, and what could not be used. Secrets show as `(set)`.

export interface SettingRow {
  key: string;
  env: string;
  /** Undefined when unset; `(set)` for a secret. */
  value?: string;
  /** `default`, `environment`, or the file(s). */
  source: string;
}

export function settingRows(config: Config): SettingRow[] {
  const profiles = config.profiles.slice(1).map((profile) => profile.name);
  const declared = [
    ...SETTINGS.filter((setting) => !('internal' in setting)).map((setting) => ({ key: setting.key, env: setting.env })),
    ...profiles.flatMap((name) => PROFILE_FIELDS.map((field) => ({ key: `profiles.${name}.${field.key}`, env: `${profilePrefix(name)}${field.field}` }))),
  ];
  return declared.map(({ key, env }) => {
    const declaration = declarationOf(env, profiles)!;
    const origin = config.origins[env];
    if (!origin) return { key, env, ...(declaration.default !== undefined ? { value: declaration.default } : {}), source: 'default' };
    const value = declaration.secret || env.endsWith('API_KEY') ? '(set)' : origin.value;
    return { key, env, value, source: origin.from.map((source) => tidy(sourceLabel(source))).join(' + ') };
  });
}

function tidy(path: string): string {
  const home = homedir();
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

export function describeConfig(config: Config): string[] {
  const lines = [`project: ${config.projectRoot} (${config.trusted ? 'trusted' : 'not trusted: its .env and settings may tighten, not loosen or redirect'})`, 'settings files:'];
  for (const layer of config.settingsLayers) lines.push(`  ${layer.scope.padEnd(8)}${tidy(layer.path)}${layer.exists ? '' : ' (none)'}`);
  lines.push('settings (unset ones are left out):');
  const rows = settingRows(config).filter((row) => row.value !== undefined);
  const keyWidth = Math.max(...rows.map((row) => row.key.length));
  const valueWidth = Math.min(40, Math.max(...rows.map((row) => row.value!.length)));
  for (const row of rows) lines.push(`  ${row.key.padEnd(keyWidth)}  ${row.value!.padEnd(valueWidth)}  ${row.source === 'default' ? 'default' : `from ${row.source}`}`);
  if (config.notes.length > 0) lines.push('notes:', ...config.notes.map((note) => `  ${note}`));
  return lines;
}

export async function run(argv: string[]): Promise<number> {
  let json = false;
  for (const arg of argv) {
    if (arg === '--json') json = true;
    else {
      process.stderr.write(`reika: config takes --json (and --cwd DIR), not "${arg}"\n`);
      return 2;
    }
  }
  let config: Config;
  try {
    config = loadConfig({ cwd: process.cwd() });
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    process.stderr.write(`reika: ${error.message}\n`);
    return 1;
  }
  if (json) {
    const files = config.settingsLayers.map(({ scope, path, exists, trusted }) => ({ scope, path, exists, trusted }));
    process.stdout.write(`${JSON.stringify({ projectRoot: config.projectRoot, trusted: config.trusted, files, settings: settingRows(config), notes: config.notes })}\n`);
  } else {
    process.stdout.write(`${describeConfig(config).join('\n')}\n`);
  }
  return 0;
}
