import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { EmbeddedSettings, Endpoint } from './model-io/protocol.js';
import type { ApprovalMode } from './tool-executor/protocol.js';

/**
 * Configuration: the environment first, then the project's `.env`, then `~/.config/reika/.env` ($XDG_CONFIG_HOME/reika when set)
 * (a key set earlier wins). Profiles come from `REIKA_PROFILES=a,b` and `REIKA_<NAME>_*`.
 */

export const DEFAULT_BASE_URL = 'http://localhost:8080/v1';

export interface Profile {
  /** `default` for the plain REIKA_* settings, else the lower-cased profile name. */
  name: string;
  baseUrl: string;
  model?: string;
  apiKey?: string;
  contextWindow?: number;
  /** `native` sends pasted images as image parts for this profile. */
  vision?: 'native';
  /**
   * `embedded`: `model` is the absolute path of a GGUF file that model-io runs itself (a model
   * ending in `.gguf` with no BASE_URL set, or ENGINE=embedded).
   */
  engine?: 'embedded';
}

export interface Config {
  profiles: Profile[];
  /** The profile in use at start (the first of REIKA_PROFILES, else `default`). */
  active: Profile;
  maxTokens?: number;
  approvals: ApprovalMode;
  repoMapBudget?: number;
  requestTimeoutMs: number;
  maxTurns: number;
  subagent: {
    maxTurns: number;
    model?: string;
    baseUrl?: string;
    apiKey?: string;
    /** REIKA_SUBAGENT_PROFILES: the subagents of a wave are spread over these profiles in turn. */
    profiles: string[];
  };
  /** The embedded engine's machine settings (REIKA_THREADS, REIKA_GPU). */
  embedded: Pick<EmbeddedSettings, 'threads' | 'gpu'>;
  /** The describing vision model (native mode is per profile: {@link Profile.vision}). */
  vision: { model?: string; baseUrl?: string; apiKey?: string; ocrLangs?: string[] };
  /** Every REIKA_* value after merging, for settings read elsewhere. */
  values: Record<string, string>;
  /**
   * The user's reika folder, `$XDG_CONFIG_HOME/reika` or `~/.config/reika`: its `.env`, `mcp.json`,
   * `commands/` and `skills/`.
   */
  userFolder: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses a `.env` file: `KEY=value`, optional `export `, quotes, `#` comments. */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!;
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.lastIndexOf(quote) > 0) {
      value = value.slice(1, value.lastIndexOf(quote));
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else {
      value = value.replace(/\s+#.*$/, '').trim();
    }
    out[match[1]!] = value;
  }
  return out;
}

function readDotEnv(path: string): Record<string, string> {
  try {
    return parseDotEnv(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
}

export interface LoadOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

/** Merges the three sources; never throws for missing files, throws ConfigError for bad values. */
export function loadConfig({ cwd, env = process.env, home = homedir() }: LoadOptions): Config {
  const values: Record<string, string> = {};
  const userFolder = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? join(env.XDG_CONFIG_HOME, 'reika') : join(home, '.config', 'reika');
  const layers = [readDotEnv(join(userFolder, '.env')), readDotEnv(join(cwd, '.env')), env];
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) if (key.startsWith('REIKA_') && value !== undefined && value !== '') values[key] = value;
  }
  const int = (key: string): number | undefined => {
    const value = values[key];
    if (value === undefined) return undefined;
    const number = Number(value.replace(/_/g, ''));
    if (!Number.isFinite(number) || number < 0) throw new ConfigError(`${key} must be a non-negative number, not "${value}"`);
    return Math.floor(number);
  };
  const profile = (name: string, prefix: string): Profile => {
    const baseUrl = values[`${prefix}BASE_URL`] ?? values.REIKA_BASE_URL;
    const model = values[`${prefix}MODEL`];
    const embedded = engineOf(values, prefix, model, baseUrl);
    return {
      name,
      baseUrl: (baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
      model: embedded && model ? resolve(cwd, model.startsWith('~/') ? join(home, model.slice(2)) : model) : model,
      apiKey: values[`${prefix}API_KEY`] ?? (prefix === 'REIKA_' ? undefined : values.REIKA_API_KEY),
      contextWindow: int(`${prefix}CONTEXT_WINDOW`),
      // A profile's own VISION wins; otherwise REIKA_VISION applies to every profile.
      vision: (values[`${prefix}VISION`] ?? values.REIKA_VISION) === 'native' ? 'native' : undefined,
      ...(embedded ? { engine: 'embedded' as const } : {}),
    };
  };
  const profiles = [profile('default', 'REIKA_')];
  for (const name of (values.REIKA_PROFILES ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const key = name.toUpperCase().replace(/[^A-Z0-9]/g, '_');
    profiles.push(profile(name.toLowerCase(), `REIKA_${key}_`));
  }
  const subagentProfiles = (values.REIKA_SUBAGENT_PROFILES ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const name of subagentProfiles) {
    if (!profiles.some((p) => p.name === name)) {
      throw new ConfigError(`REIKA_SUBAGENT_PROFILES names "${name}", which is not a profile (add it to REIKA_PROFILES, or use "default")`);
    }
  }
  const approvalsValue = (values.REIKA_AUTO_APPROVE ?? 'safe').toLowerCase();
  const approvals: ApprovalMode | undefined =
    approvalsValue === 'safe' ? 'safe' : approvalsValue === 'off' ? 'off' : approvalsValue === 'bypass' || approvalsValue === 'yolo' ? 'bypass' : undefined;
  if (!approvals) throw new ConfigError(`REIKA_AUTO_APPROVE must be safe, off, bypass or yolo, not "${values.REIKA_AUTO_APPROVE}"`);
  const gpu = values.REIKA_GPU?.toLowerCase();
  if (gpu !== undefined && !['auto', 'off', 'cuda', 'vulkan', 'metal'].includes(gpu)) throw new ConfigError(`REIKA_GPU must be auto, off, cuda, vulkan or metal, not "${values.REIKA_GPU}"`);
  return {
    profiles,
    active: profiles[1] ?? profiles[0]!,
    maxTokens: int('REIKA_MAX_TOKENS'),
    approvals,
    repoMapBudget: int('REIKA_REPO_MAP_BUDGET'),
    requestTimeoutMs: int('REIKA_REQUEST_TIMEOUT_MS') ?? 600_000,
    maxTurns: int('REIKA_MAX_TURNS') ?? 200,
    subagent: {
      maxTurns: int('REIKA_SUBAGENT_MAX_TURNS') ?? 8,
      model: values.REIKA_SUBAGENT_MODEL,
      baseUrl: values.REIKA_SUBAGENT_BASE_URL?.replace(/\/+$/, ''),
      apiKey: values.REIKA_SUBAGENT_API_KEY,
      profiles: subagentProfiles,
    },
    embedded: {
      ...(int('REIKA_THREADS') ? { threads: int('REIKA_THREADS') } : {}),
      ...(gpu ? { gpu: gpu as EmbeddedSettings['gpu'] } : {}),
    },
    vision: {
      model: values.REIKA_VISION_MODEL,
      baseUrl: values.REIKA_VISION_BASE_URL?.replace(/\/+$/, ''),
      apiKey: values.REIKA_VISION_API_KEY,
      ocrLangs: values.REIKA_OCR_LANGS?.split(',').map((s) => s.trim()).filter(Boolean),
    },
    values,
    userFolder,
  };
}

/** Finds a profile by name (case-insensitive). */
export function findProfile(config: Config, name: string): Profile | undefined {
  return config.profiles.find((p) => p.name === name.toLowerCase());
}

/**
 * Whether a profile runs its model inside reika: `<prefix>ENGINE` (or REIKA_ENGINE) says so, or,
 * when neither is set, a model path ending in `.gguf` with no BASE_URL.
 */
function engineOf(values: Record<string, string>, prefix: string, model: string | undefined, baseUrl: string | undefined): boolean {
  const key = values[`${prefix}ENGINE`] !== undefined ? `${prefix}ENGINE` : 'REIKA_ENGINE';
  const engine = values[key]?.toLowerCase();
  if (engine !== undefined && engine !== 'embedded' && engine !== 'http') throw new ConfigError(`${key} must be embedded or http, not "${values[key]}"`);
  const embedded = engine === 'embedded' || (engine === undefined && baseUrl === undefined && model !== undefined && /\.gguf$/i.test(model));
  if (embedded && !model) throw new ConfigError(`${key}=embedded needs ${prefix}MODEL=path/to/model.gguf`);
  return embedded;
}

/** The endpoint model-io needs for a profile; the model may still be unknown (discovered later). */
export function endpointOf(profile: Profile, config: Config): Endpoint {
  const endpoint: Endpoint = { baseUrl: profile.baseUrl, model: profile.model ?? '', apiKey: profile.apiKey, requestTimeoutMs: config.requestTimeoutMs };
  if (profile.engine === 'embedded') {
    endpoint.engine = 'embedded';
    endpoint.embedded = { ...config.embedded, ...(profile.contextWindow !== undefined ? { contextWindow: profile.contextWindow } : {}) };
  }
  return endpoint;
}
