import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EmbeddedSettings, Endpoint } from '../model-io/protocol.js';
import type { ReasoningHistorySetting } from '../model-io/http/reasoning-history.js';
import type { ApprovalMode, ToolSettings } from '../tool-executor/protocol.js';
import { secretValues } from '../tool-executor/safety/secret-env.js';
import { declarationOf, profilePrefix, SETTINGS, type SettingName } from './declarations.js';
import { ConfigError, parseSetting, type Parsed } from './parse.js';
import { dotEnvLayer, reikaValues, userFolderOf, type Layer } from './sources.js';

/**
 * The typed configuration, read once per process (and again for the new folder at `/cd`) and
 * passed down: the environment first, then the project's `.env`, then `~/.config/reika/.env`
 * ($XDG_CONFIG_HOME/reika when set); a key set earlier wins. Every setting is declared in
 * `declarations.ts`; profiles come from `REIKA_PROFILES=a,b` and `REIKA_<NAME>_*`.
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
  /** What the tool executor needs, sent with every call (sandbox, checkpoints, bash limits). */
  tools: ToolSettings;
  /** Engine detection and the facts reika draws from it. */
  engine: {
    /** REIKA_DETECT_ENGINE. */
    detect: boolean;
    /** REIKA_TEMPLATE_CHECK. */
    templateCheck: boolean;
    /** REIKA_ENGINE_WAIT_MS, when set (and not 0). */
    waitMs?: number;
    reasoningHistory: ReasoningHistorySetting;
  };
  mcp: {
    /** REIKA_MCP_TRUST_PROJECT: the project's `.mcp.json` servers start without asking. */
    trustProject: boolean;
    /** REIKA_MCP_WAIT_MS: how long the first request waits for the servers (0: not at all). */
    waitMs: number;
  };
  /** REIKA_BOOTSTRAP_CACHE (the environment only): the startup cache and the memory of servers kept with it. */
  bootstrapCache: boolean;
  /** The value of every `*_API_KEY` setting: never written to a transcript. */
  secrets: string[];
  /**
   * The user's reika folder, `$XDG_CONFIG_HOME/reika` or `~/.config/reika`: its `.env`, `mcp.json`,
   * `commands/` and `skills/`.
   */
  userFolder: string;
}

export interface LoadOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

/** The merged raw values with their declarations: typed getters that parse each value once. */
class Values {
  private readonly parsed = new Map<string, Parsed | undefined>();

  constructor(
    readonly raw: Readonly<Record<string, string>>,
    private readonly profileNames: readonly string[] = [],
  ) {}

  private get(name: string): Parsed | undefined {
    if (this.parsed.has(name)) return this.parsed.get(name);
    const declaration = declarationOf(name, this.profileNames);
    if (!declaration) throw new Error(`${name} is not a declared setting`);
    const value = this.raw[name] ?? declaration.default;
    const parsed = value === undefined ? undefined : parseSetting(name, declaration, value);
    this.parsed.set(name, parsed);
    return parsed;
  }

  has(name: string): boolean {
    return this.raw[name] !== undefined;
  }

  /** The value when a source sets it (its default left out). */
  explicit(name: string): string | undefined {
    return this.has(name) ? this.word(name) : undefined;
  }

  flag(name: SettingName): boolean {
    return this.get(name) === true;
  }

  number(name: string): number | undefined {
    return this.get(name) as number | undefined;
  }

  word(name: string): string | undefined {
    return this.get(name) as string | undefined;
  }

  list(name: SettingName): string[] {
    return (this.get(name) as string[] | undefined) ?? [];
  }
}

/** Merges the three sources; never throws for missing files, throws ConfigError for bad values. */
export function loadConfig({ cwd, env = process.env, home = homedir() }: LoadOptions): Config {
  const userFolder = userFolderOf(env, home);
  const layers: Layer[] = [{ kind: 'environment', values: reikaValues(env) }, dotEnvLayer('project .env', join(cwd, '.env')), dotEnvLayer('user .env', join(userFolder, '.env'))];
  const raw: Record<string, string> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer.values)) {
      const from = declarationOf(key)?.from;
      // Files never set what only the environment may; a project never sets what only the user may.
      if ((from === 'environment' && layer.kind !== 'environment') || (from === 'user' && layer.kind === 'project .env')) continue;
      raw[key] ??= value;
    }
  }
  const names = new Values(raw).list('REIKA_PROFILES');
  const values = new Values(raw, names);
  // Read from the environment by the threads that need them, but checked here, where a bad value can be said.
  for (const setting of SETTINGS) if (setting.from === 'environment' && !('internal' in setting) && layers[0]!.values[setting.env] !== undefined) parseSetting(setting.env, setting, layers[0]!.values[setting.env]!);
  return buildConfig(values, { cwd, home, userFolder, profileNames: names });
}

function buildConfig(values: Values, where: { cwd: string; home: string; userFolder: string; profileNames: string[] }): Config {
  const { cwd, home } = where;
  const profile = (name: string, prefix: string): Profile => {
    const baseUrl = values.explicit(`${prefix}BASE_URL`) ?? values.explicit('REIKA_BASE_URL');
    const model = values.word(`${prefix}MODEL`);
    const embedded = engineOf(values, prefix, model, baseUrl);
    // A profile's own VISION wins; otherwise REIKA_VISION applies to every profile.
    const vision = values.explicit(`${prefix}VISION`) ?? values.word('REIKA_VISION');
    return {
      name,
      baseUrl: baseUrl ?? DEFAULT_BASE_URL,
      model: embedded && model ? resolve(cwd, model.startsWith('~/') ? join(home, model.slice(2)) : model) : model,
      apiKey: values.word(`${prefix}API_KEY`) ?? (prefix === 'REIKA_' ? undefined : values.word('REIKA_API_KEY')),
      contextWindow: values.number(`${prefix}CONTEXT_WINDOW`),
      vision: vision === 'native' ? 'native' : undefined,
      ...(embedded ? { engine: 'embedded' as const } : {}),
    };
  };
  const profiles = [profile('default', 'REIKA_')];
  for (const name of where.profileNames) profiles.push(profile(name.toLowerCase(), profilePrefix(name)));
  const subagentProfiles = values.list('REIKA_SUBAGENT_PROFILES').map((name) => name.toLowerCase());
  for (const name of subagentProfiles) {
    if (!profiles.some((p) => p.name === name)) {
      throw new ConfigError(`REIKA_SUBAGENT_PROFILES names "${name}", which is not a profile (add it to REIKA_PROFILES, or use "default")`);
    }
  }
  const threads = values.number('REIKA_THREADS');
  const gpu = values.word('REIKA_GPU') as EmbeddedSettings['gpu'] | undefined;
  const engineWait = values.number('REIKA_ENGINE_WAIT_MS');
  const ocrLangs = values.has('REIKA_OCR_LANGS') ? values.list('REIKA_OCR_LANGS') : undefined;
  return {
    profiles,
    active: profiles[1] ?? profiles[0]!,
    maxTokens: values.number('REIKA_MAX_TOKENS'),
    approvals: values.word('REIKA_AUTO_APPROVE') as ApprovalMode,
    repoMapBudget: values.number('REIKA_REPO_MAP_BUDGET'),
    requestTimeoutMs: values.number('REIKA_REQUEST_TIMEOUT_MS')!,
    maxTurns: values.number('REIKA_MAX_TURNS')!,
    subagent: {
      maxTurns: values.number('REIKA_SUBAGENT_MAX_TURNS')!,
      model: values.word('REIKA_SUBAGENT_MODEL'),
      baseUrl: values.word('REIKA_SUBAGENT_BASE_URL'),
      apiKey: values.word('REIKA_SUBAGENT_API_KEY'),
      profiles: subagentProfiles,
    },
    embedded: { ...(threads ? { threads } : {}), ...(gpu ? { gpu } : {}) },
    vision: {
      model: values.word('REIKA_VISION_MODEL'),
      baseUrl: values.word('REIKA_VISION_BASE_URL'),
      apiKey: values.word('REIKA_VISION_API_KEY'),
      ocrLangs,
    },
    tools: {
      sandbox: values.word('REIKA_SANDBOX') as ToolSettings['sandbox'],
      checkpoints: values.flag('REIKA_CHECKPOINTS'),
      checkpointWatch: values.flag('REIKA_CHECKPOINT_WATCH'),
      // 0 means the default, as it always has.
      bashTimeoutMs: values.number('REIKA_BASH_TIMEOUT_MS') || declaredDefault('REIKA_BASH_TIMEOUT_MS'),
      bashIdleMs: values.number('REIKA_BASH_IDLE_MS') || declaredDefault('REIKA_BASH_IDLE_MS'),
      passEnv: values.list('REIKA_PASS_ENV').filter((name) => !name.startsWith('REIKA_')),
      secrets: secretValues(values.raw),
      ...(values.word('REIKA_SEARCH_URL') ? { searchUrl: values.word('REIKA_SEARCH_URL') } : {}),
    },
    engine: {
      detect: values.flag('REIKA_DETECT_ENGINE'),
      templateCheck: values.flag('REIKA_TEMPLATE_CHECK'),
      ...(engineWait ? { waitMs: engineWait } : {}),
      reasoningHistory: values.word('REIKA_REASONING_HISTORY') as ReasoningHistorySetting,
    },
    bootstrapCache: values.flag('REIKA_BOOTSTRAP_CACHE'),
    mcp: { trustProject: values.flag('REIKA_MCP_TRUST_PROJECT'), waitMs: values.number('REIKA_MCP_WAIT_MS')! },
    secrets: [...new Set([...Object.entries(values.raw).filter(([key]) => key.endsWith('API_KEY')).map(([, value]) => value), ...secretValues(values.raw)])],
    userFolder: where.userFolder,
  };
}

/** A duration setting's declared default. */
function declaredDefault(name: SettingName): number {
  return Number(declarationOf(name)!.default);
}

/** Finds a profile by name (case-insensitive). */
export function findProfile(config: Config, name: string): Profile | undefined {
  return config.profiles.find((p) => p.name === name.toLowerCase());
}

/**
 * Whether a profile runs its model inside reika: `<prefix>ENGINE` (or REIKA_ENGINE) says so, or,
 * when neither is set, a model path ending in `.gguf` with no BASE_URL.
 */
function engineOf(values: Values, prefix: string, model: string | undefined, baseUrl: string | undefined): boolean {
  const key = values.has(`${prefix}ENGINE`) ? `${prefix}ENGINE` : 'REIKA_ENGINE';
  const engine = values.word(key);
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
