import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EmbeddedSettings, Endpoint } from '../model-io/protocol.js';
import type { ReasoningHistorySetting } from '../model-io/http/reasoning-history.js';
import type { ApprovalMode, ToolSettings } from '../tool-executor/protocol.js';
import { secretValues } from '../tool-executor/safety/secret-env.js';
import { declarationOf, profilePrefix, SETTINGS, type SettingName } from '../settings/declarations.js';
import { ConfigError, parseSetting, type Parsed } from '../settings/parse.js';
import { describeIgnored, mergeLayers, type IgnoredSetting } from './merge-layers.js';
import { readSettingsFile, settingsPaths } from './settings-files.js';
import type { SettingsLayer } from './settings-layer.js';
import { dotEnvLayer, foldersUpTo, projectRootOf, reikaValues, userFolderOf, type Layer, type Source } from './sources.js';
import { projectTrust } from '../mcp/trust.js';

// The typed configuration, read once per process (and again for the new folder at `/cd`) and
// passed down: the environment first, then the project's `.env`, then `~/.config/reika/.env`
// ($XDG_CONFIG_HOME/reika when set); a key set earlier wins. Every setting is declared in
// `declarations.ts`; profiles come from `REIKA_PROFILES=a,b` and `REIKA_<NAME>_*`.

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
  /** The profile in use at start: REIKA_PROFILE (or the `profile` key), else `default` (`--profile` wins: session-flags.ts). */
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
  /** Language servers after edits (SPEC §19). */
  diagnostics: {
    /** REIKA_DIAGNOSTICS. */
    enabled: boolean;
    /** REIKA_DIAGNOSTICS_MS: how long an edit's result waits for its server. */
    waitMs: number;
  };
  mcp: {
    /** The project is trusted (REIKA_TRUST_PROJECT, or the user said so): its `.mcp.json` servers start without asking. */
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
  /** The project root (the git top of the folder, else the folder): its `.env` and `.reika/` are read. */
  projectRoot: string;
  /** Whether the project may loosen safety and redirect code (`LoadOptions.trusted`). */
  trusted: boolean;
  /** The settings files, weakest first (user, project, local), with their `permissions` and `hooks` blocks. */
  settingsLayers: SettingsLayer[];
  /** One line each, to say at start: broken settings files, unknown keys, what the project may not set. */
  notes: string[];
  /** The project's values left out (untrusted, or the user's alone to set): what trusting it would change. */
  ignored: IgnoredSetting[];
  /** Each value set, by variable, and where it came from: for `reika config` only (code reads the typed fields). */
  origins: Readonly<Record<string, { value: string; from: readonly Source[] }>>;
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

export interface LoadOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  /**
   * Whether the project may loosen safety and redirect code (its `.env` and settings files).
   * Default: REIKA_TRUST_PROJECT (or REIKA_MCP_TRUST_PROJECT) from the environment or the user's
   * files, or the user's remembered answer for this project (`actors/mcp/trust.ts`).
   */
  trusted?: boolean;
}

/**
 * Merges the sources, strongest first: the environment, the project's `.env` files (from the
 * folder up to the project root, nearer first), `.reika/settings.local.json`,
 * `.reika/settings.json`, the user's `.env`, the user's `settings.json`, then the defaults. Never
 * throws for missing or broken files (they are notes); throws ConfigError for a bad value.
 */
export function loadConfig({ cwd, env = process.env, home = homedir(), trusted }: LoadOptions): Config {
  const userFolder = userFolderOf(env, home);
  const projectRoot = projectRootOf(cwd);
  const paths = settingsPaths(userFolder, projectRoot);
  const userFiles = { env: dotEnvLayer('user .env', join(userFolder, '.env')), settings: readSettingsFile('user', paths.user, true) };
  const environment: Layer = { kind: 'environment', values: reikaValues(env) };
  // Trust is the user's to give: their environment, their own files, or their answer remembered.
  const userTrust = mergeLayers([environment, userFiles.env, { kind: 'user settings', path: paths.user, values: userFiles.settings.values }], true).raw;
  const isTrusted = trusted ?? (new Values(userTrust).flag('REIKA_TRUST_PROJECT') || new Values(userTrust).flag('REIKA_MCP_TRUST_PROJECT') || projectTrust().isTrusted(projectRoot));
  const local = readSettingsFile('local', paths.local, isTrusted);
  const project = readSettingsFile('project', paths.project, isTrusted);
  const layers: Layer[] = [
    environment,
    ...foldersUpTo(cwd, projectRoot).map((folder) => dotEnvLayer('project .env', join(folder, '.env'))),
    { kind: 'local settings', path: paths.local, values: local.values },
    { kind: 'project settings', path: paths.project, values: project.values },
    userFiles.env,
    { kind: 'user settings', path: paths.user, values: userFiles.settings.values },
  ];
  const merged = mergeLayers(layers, isTrusted);
  const names = new Values(merged.raw).list('REIKA_PROFILES');
  const values = new Values(merged.raw, names);
  // Read from the environment by the threads that need them, but checked here, where a bad value can be said.
  for (const setting of SETTINGS) if (setting.from === 'environment' && !('internal' in setting) && environment.values[setting.env] !== undefined) parseSetting(setting.env, setting, environment.values[setting.env]!);
  const config = buildConfig(values, { cwd, home, userFolder, profileNames: names });
  // A project's key left out is still a secret: a command may print the file it is in.
  const ignoredSecrets = secretValues(Object.fromEntries(merged.ignored.map((item) => [item.env, item.value])));
  config.tools.secrets = [...new Set([...config.tools.secrets, ...ignoredSecrets])];
  config.secrets = [...new Set([...config.secrets, ...ignoredSecrets])];
  const notes = [...userFiles.settings.notes, ...project.notes, ...local.notes, ...merged.ignored.map((item) => describeIgnored(item, declarationOf(item.env, names)?.secret === true || item.env.endsWith('API_KEY')))];
  return { ...config, mcp: { ...config.mcp, trustProject: isTrusted }, projectRoot, trusted: isTrusted, settingsLayers: [userFiles.settings.layer, project.layer, local.layer], notes, ignored: merged.ignored, origins: Object.fromEntries(Object.entries(merged.raw).map(([key, value]) => [key, { value, from: merged.sources[key] ?? [] }])) };
}

function buildConfig(values: Values, where: { cwd: string; home: string; userFolder: string; profileNames: string[] }): Omit<Config, 'projectRoot' | 'trusted' | 'settingsLayers' | 'notes' | 'ignored' | 'origins'> {
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
    active: activeProfile(values, profiles),
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
    mcp: { trustProject: false, waitMs: values.number('REIKA_MCP_WAIT_MS')! },
    diagnostics: { enabled: values.flag('REIKA_DIAGNOSTICS'), waitMs: values.number('REIKA_DIAGNOSTICS_MS')! },
    secrets: [...new Set([...Object.entries(values.raw).filter(([key]) => key.endsWith('API_KEY')).map(([, value]) => value), ...secretValues(values.raw)])],
    userFolder: where.userFolder,
  };
}

/** The profile REIKA_PROFILE names (a ConfigError naming the profiles when there is none such), else `default`. */
function activeProfile(values: Values, profiles: Profile[]): Profile {
  const wanted = values.explicit('REIKA_PROFILE');
  if (wanted === undefined) return profiles[0]!;
  const found = profiles.find((p) => p.name === wanted.toLowerCase());
  if (!found) throw new ConfigError(`REIKA_PROFILE names "${wanted}", which is not a profile (profiles: ${profiles.map((p) => p.name).join(', ')}; add one with REIKA_PROFILES or "profiles")`);
  return found;
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
  // Errors name the variables of the profile in use (REIKA_<NAME>_API_KEY, not REIKA_API_KEY).
  if (profile.name !== 'default') Object.assign(endpoint, { keyVariable: `${profilePrefix(profile.name)}API_KEY`, urlVariable: `${profilePrefix(profile.name)}BASE_URL`, modelVariable: `${profilePrefix(profile.name)}MODEL` });
  if (profile.engine === 'embedded') {
    endpoint.engine = 'embedded';
    endpoint.embedded = { ...config.embedded, ...(profile.contextWindow !== undefined ? { contextWindow: profile.contextWindow } : {}) };
  }
  return endpoint;
}
