// Every setting reika reads, declared once: its environment variable, its settings-file key, its
// type and default, where it may come from, one line of documentation, and whether a project must
// be trusted to set it. `load-config.ts` parses them into the typed {@link Config}; nothing else
// reads `REIKA_*` variables (the few `environment`-only ones go through `process-settings.ts`).

/** How a value is read (`parse.ts` holds the one parser of each). */
export type SettingType =
  | { kind: 'boolean' }
  | { kind: 'count' }
  | { kind: 'duration' }
  | { kind: 'choice'; values: readonly string[]; aliases?: Readonly<Record<string, string>> }
  | { kind: 'text' }
  | { kind: 'url' }
  | { kind: 'list' };

/**
 * What a project (its `.env` or settings) may not do until it is trusted: `loosens` safety (a value
 * less strict than what the user has, by {@link SettingDeclaration.strictness}), `redirects` where
 * code and prompts go (another server, model, key or profile).
 */
export type Guard = 'loosens' | 'redirects';

export interface SettingDeclaration {
  /** The environment variable (also the name in `.env` files). */
  env: string;
  /** The settings-file key (a dotted path for nested ones). */
  key: string;
  type: SettingType;
  /** The value when nothing sets it, as it would be written in the environment; absent: unset. */
  default?: string;
  /**
   * `anywhere`: the environment, `.env` files and settings files. `user`: the environment and the
   * user's own files, never a project's (a repository cannot hand itself the user's tokens).
   * `environment`: the process environment only (read by threads before any file is, or handed
   * from reika to its children).
   */
  from: 'anywhere' | 'user' | 'environment';
  doc: string;
  guard?: Guard;
  /** For `loosens`: the values from least to most strict (canonical spellings). */
  strictness?: readonly string[];
  /** A value never shown whole (API keys). */
  secret?: boolean;
  /** Set by reika for its own processes, not by users: listed so every `REIKA_*` name is known. */
  internal?: boolean;
}

const onOff = { kind: 'boolean' } as const;
const count = { kind: 'count' } as const;
const duration = { kind: 'duration' } as const;
const text = { kind: 'text' } as const;
const url = { kind: 'url' } as const;
const list = { kind: 'list' } as const;

export const SETTINGS = [
  // The server and the model (the `default` profile).
  { env: 'REIKA_BASE_URL', key: 'baseUrl', type: url, default: 'http://localhost:8080/v1', from: 'anywhere', guard: 'redirects', doc: 'the OpenAI-compatible server' },
  { env: 'REIKA_MODEL', key: 'model', type: text, from: 'anywhere', guard: 'redirects', doc: "the model name (asked of /v1/models when unset), or a .gguf file to run inside reika" },
  { env: 'REIKA_API_KEY', key: 'apiKey', type: text, from: 'anywhere', guard: 'redirects', secret: true, doc: 'sent as Authorization: Bearer …' },
  { env: 'REIKA_CONTEXT_WINDOW', key: 'contextWindow', type: count, from: 'anywhere', doc: 'the context window in tokens (else asked of the server)' },
  { env: 'REIKA_VISION', key: 'vision.mode', type: { kind: 'choice', values: ['native', 'off'] }, from: 'anywhere', doc: 'native: pasted images go to the model as image parts (every profile without its own)' },
  { env: 'REIKA_ENGINE', key: 'engine', type: { kind: 'choice', values: ['embedded', 'http'] }, from: 'anywhere', doc: 'embedded runs REIKA_MODEL inside reika whatever its name; http never does' },
  { env: 'REIKA_PROFILE', key: 'profile', type: text, from: 'anywhere', guard: 'redirects', doc: 'the profile to start on (--profile wins); default: none, the plain REIKA_* settings' },
  { env: 'REIKA_PROFILES', key: 'profiles', type: list, from: 'anywhere', guard: 'redirects', doc: 'the profiles, a,b, each with REIKA_<NAME>_MODEL, _BASE_URL, _API_KEY, _CONTEXT_WINDOW, _VISION, _ENGINE' },
  { env: 'REIKA_THREADS', key: 'threads', type: count, from: 'anywhere', doc: "the embedded engine's CPU threads (default: math cores − 1)" },
  { env: 'REIKA_GPU', key: 'gpu', type: { kind: 'choice', values: ['auto', 'off', 'cuda', 'vulkan', 'metal'] }, from: 'anywhere', doc: "the embedded engine's GPU" },
  { env: 'REIKA_MAX_TOKENS', key: 'maxTokens', type: count, from: 'anywhere', doc: 'the generation cap per request (default: what fits the window)' },
  { env: 'REIKA_REQUEST_TIMEOUT_MS', key: 'requestTimeoutMs', type: duration, default: '600000', from: 'anywhere', doc: 'time without life from the server (0 = wait forever)' },
  { env: 'REIKA_MAX_TURNS', key: 'maxTurns', type: count, default: '200', from: 'anywhere', doc: 'model requests per turn' },
  { env: 'REIKA_REPO_MAP_BUDGET', key: 'repoMapBudget', type: count, from: 'anywhere', doc: 'repo-map tokens (default: 5% of the window, 3,200–12,000, from 1,600 under a 32k window); setting it pins it' },
  { env: 'REIKA_REASONING_HISTORY', key: 'reasoningHistory', type: { kind: 'choice', values: ['auto', 'keep', 'drop'] }, default: 'auto', from: 'anywhere', doc: "keep or drop the model's reasoning in the history; auto: where the chat template renders it" },
  { env: 'REIKA_DETECT_ENGINE', key: 'detectEngine', type: onOff, default: 'on', from: 'anywhere', doc: 'off skips asking the server which engine it is' },
  { env: 'REIKA_TEMPLATE_CHECK', key: 'templateCheck', type: onOff, default: 'on', from: 'anywhere', doc: "off skips the chat template's check" },
  { env: 'REIKA_ENGINE_WAIT_MS', key: 'engineWaitMs', type: duration, from: 'anywhere', doc: "how long the first request waits for engine detection and the template check (default: a short wait for detection only)" },
  // Safety.
  { env: 'REIKA_AUTO_APPROVE', key: 'approvals', type: { kind: 'choice', values: ['safe', 'off', 'bypass'], aliases: { yolo: 'bypass' } }, default: 'safe', from: 'anywhere', guard: 'loosens', strictness: ['bypass', 'safe', 'off'], doc: 'safe asks for dangerous actions, off for every action, bypass (yolo) never asks' },
  { env: 'REIKA_SANDBOX', key: 'sandbox', type: { kind: 'choice', values: ['auto', 'bwrap', 'off'] }, default: 'auto', from: 'anywhere', guard: 'loosens', strictness: ['off', 'auto', 'bwrap'], doc: 'auto: bubblewrap if it works here; bwrap: required; off: commands run unconfined' },
  { env: 'REIKA_CHECKPOINTS', key: 'checkpoints', type: onOff, default: 'on', from: 'anywhere', guard: 'loosens', strictness: ['off', 'on'], doc: 'off: no snapshots before edits and commands (no /undo)' },
  { env: 'REIKA_CHECKPOINT_WATCH', key: 'checkpointWatch', type: onOff, default: 'on', from: 'anywhere', doc: 'off: every checkpoint walks the whole tree instead of reading what a watcher saw change' },
  { env: 'REIKA_BASH_TIMEOUT_MS', key: 'bashTimeoutMs', type: duration, default: '1800000', from: 'anywhere', doc: "a command's total time (0: the default)" },
  { env: 'REIKA_PASS_ENV', key: 'passEnv', type: list, from: 'user', doc: 'variables commands get although their names look secret (e.g. GITHUB_TOKEN for gh); REIKA_* never' },
  { env: 'REIKA_SEARCH_URL', key: 'search.url', type: url, from: 'anywhere', guard: 'redirects', doc: 'a SearXNG-compatible endpoint (with or without /search): the search tool is offered only with it' },
  { env: 'REIKA_DIAGNOSTICS', key: 'diagnostics.enabled', type: onOff, default: 'on', from: 'anywhere', doc: 'off: no language server checks edits and writes' },
  { env: 'REIKA_DIAGNOSTICS_MS', key: 'diagnostics.waitMs', type: duration, default: '3000', from: 'anywhere', doc: "how long an edit's or write's result waits for its language server's errors" },
  { env: 'REIKA_BASH_IDLE_MS', key: 'bashIdleMs', type: duration, default: '300000', from: 'anywhere', doc: "a command's time without output (0: the default)" },
  // Subagents.
  { env: 'REIKA_SUBAGENT_MAX_TURNS', key: 'subagent.maxTurns', type: count, default: '8', from: 'anywhere', doc: "a subagent's request budget (its last is forced to report)" },
  { env: 'REIKA_SUBAGENT_MODEL', key: 'subagent.model', type: text, from: 'anywhere', guard: 'redirects', doc: "the subagents' model (default: the session's)" },
  { env: 'REIKA_SUBAGENT_BASE_URL', key: 'subagent.baseUrl', type: url, from: 'anywhere', guard: 'redirects', doc: "the subagents' server (default: the session's)" },
  { env: 'REIKA_SUBAGENT_API_KEY', key: 'subagent.apiKey', type: text, from: 'anywhere', guard: 'redirects', secret: true, doc: "the subagents' key (default: the session's)" },
  { env: 'REIKA_SUBAGENT_PROFILES', key: 'subagent.profiles', type: list, from: 'anywhere', guard: 'redirects', doc: "spread each wave's subagents over these profiles in turn" },
  // Images.
  { env: 'REIKA_VISION_MODEL', key: 'vision.model', type: text, from: 'anywhere', guard: 'redirects', doc: 'a vision model that transcribes and describes pasted images' },
  { env: 'REIKA_VISION_BASE_URL', key: 'vision.baseUrl', type: url, from: 'anywhere', guard: 'redirects', doc: "the vision model's server (default: the session's)" },
  { env: 'REIKA_VISION_API_KEY', key: 'vision.apiKey', type: text, from: 'anywhere', guard: 'redirects', secret: true, doc: "the vision model's key" },
  { env: 'REIKA_OCR_LANGS', key: 'vision.ocrLanguages', type: list, from: 'anywhere', doc: 'OCR languages for pasted images (macOS, Windows)' },
  // MCP servers.
  { env: 'REIKA_MCP_WAIT_MS', key: 'mcp.waitMs', type: duration, default: '0', from: 'anywhere', doc: 'how long the first request waits for MCP servers to be ready (later ones join at /mcp reload)' },
  // Trust: the user's alone to give.
  { env: 'REIKA_TRUST_PROJECT', key: 'trustProject', type: onOff, default: 'off', from: 'user', doc: "on: trust the project without asking: its settings may loosen safety and change the server, model or key, and its .mcp.json servers start (headless declines all of it otherwise)" },
  { env: 'REIKA_MCP_TRUST_PROJECT', key: 'mcp.trustProject', type: onOff, default: 'off', from: 'user', doc: 'the former name of REIKA_TRUST_PROJECT, still read' },
  // Read by threads and processes from their environment.
  { env: 'REIKA_BOOTSTRAP_CACHE', key: 'bootstrapCache', type: onOff, default: 'on', from: 'environment', doc: "off: the file index and repo map are neither read from nor written to the startup cache" },
  { env: 'REIKA_TRACE_STARTUP', key: 'traceStartup', type: onOff, default: 'off', from: 'environment', doc: 'on: one stderr line per startup milestone' },
  { env: 'REIKA_EMBEDDED_SCRIPT', key: 'embeddedScript', type: text, from: 'environment', doc: "a JSON file of scripted replies the embedded engine gives instead of running a model (tests)" },
  { env: 'REIKA_SESSION_ID', key: 'sessionId', type: text, from: 'environment', internal: true, doc: "the session checkpoints are filed under, handed to reika's tool executor" },
  { env: 'REIKA_TRACE_ORIGIN', key: 'traceOrigin', type: text, from: 'environment', internal: true, doc: "the main thread's clock origin, handed to traced threads" },
  { env: 'REIKA_PROJECT_DIR', key: 'projectDir', type: text, from: 'environment', internal: true, doc: 'the project folder, given to hooks' },
  { env: 'REIKA_TOOL_OWNER', key: 'toolOwner', type: text, from: 'environment', internal: true, doc: 'marks every process a command starts' },
] as const satisfies readonly SettingDeclaration[];

/** The environment variable of every declared setting. */
export type SettingName = (typeof SETTINGS)[number]['env'];

/**
 * A profile's own settings, `REIKA_<NAME>_<FIELD>` (the `default` profile's are the plain
 * REIKA_<FIELD> above); in settings files `profiles.<name>.<key>`.
 */
export const PROFILE_FIELDS = [
  { field: 'MODEL', key: 'model', type: text, guard: 'redirects', doc: "the profile's model" },
  { field: 'BASE_URL', key: 'baseUrl', type: url, guard: 'redirects', doc: "the profile's server (default: REIKA_BASE_URL)" },
  { field: 'API_KEY', key: 'apiKey', type: text, guard: 'redirects', secret: true, doc: "the profile's key (default: REIKA_API_KEY)" },
  { field: 'CONTEXT_WINDOW', key: 'contextWindow', type: count, doc: "the profile's context window" },
  { field: 'VISION', key: 'vision', type: { kind: 'choice', values: ['native', 'off'] }, doc: 'native: pasted images go to this profile as image parts' },
  { field: 'ENGINE', key: 'engine', type: { kind: 'choice', values: ['embedded', 'http'] }, doc: "embedded runs the profile's model inside reika" },
] as const satisfies readonly (Pick<SettingDeclaration, 'key' | 'type' | 'doc' | 'guard' | 'secret'> & { field: string })[];

const byEnv = new Map<string, SettingDeclaration>(SETTINGS.map((setting) => [setting.env, setting]));

/** The declaration of a variable: a declared one, or a profile's `REIKA_<NAME>_<FIELD>` (profiles named). */
export function declarationOf(env: string, profiles: readonly string[] = []): SettingDeclaration | undefined {
  const declared = byEnv.get(env);
  if (declared) return declared;
  for (const name of profiles) {
    const prefix = profilePrefix(name);
    if (!env.startsWith(prefix)) continue;
    const field = PROFILE_FIELDS.find((f) => env === `${prefix}${f.field}`);
    if (field) return { env, key: `profiles.${name.toLowerCase()}.${field.key}`, type: field.type, from: 'anywhere', doc: field.doc, ...('guard' in field ? { guard: field.guard } : {}), ...('secret' in field ? { secret: field.secret } : {}) };
  }
  return undefined;
}

/** `REIKA_<NAME>_` for a profile name (`my-gpu` → `REIKA_MY_GPU_`). */
export function profilePrefix(name: string): string {
  return `REIKA_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_`;
}
