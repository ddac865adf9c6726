import { profilePrefix } from '../settings/declarations.js';
import type { Config } from '../config/load-config.js';
import type { Endpoint, ToolSchema } from '../model-io/protocol.js';
import type { ApprovalMode, ToolSettings } from '../tool-executor/protocol.js';
import type { RuleData } from '../tool-executor/rules/rule.js';
import type { SubagentBrief } from './protocol.js';

/**
 * The brief every subagent of a turn gets. The endpoint is the subagent's own when
 * REIKA_SUBAGENT_MODEL / _BASE_URL / _API_KEY are set, each falling back to the session's, so a
 * wave can run against a second server. With an endpoint of its own, the window (and an unset
 * model) are asked of that server once; otherwise the session's are used.
 */
export interface BriefInput {
  config: Pick<Config, 'subagent' | 'maxTokens'> & Partial<Pick<Config, 'profiles'>>;
  /** The session's settled endpoint and window. */
  endpoint: Endpoint;
  window?: number;
  root: string;
  /** The system prompt built in `subagent` mode from the session's frozen bootstrap. */
  system: string;
  /** The session's tools array in `subagent` mode. */
  tools: ToolSchema[];
  approvals: ApprovalMode;
  /** The session's settings for the tools (sandbox, bash limits). */
  toolSettings: ToolSettings;
  /** The session's permission rules in force: a subagent's calls are judged by them too. */
  permissions?: RuleData[];
  /** The session's hooks in force, for the subagent's calls and its SubagentStop. */
  hooks?: SubagentBrief['hooks'];
}

export function subagentBrief(input: BriefInput): SubagentBrief {
  const own = input.config.subagent;
  const sameServer = own.baseUrl === undefined || own.baseUrl === input.endpoint.baseUrl.replace(/\/+$/, '');
  const ownModel = own.model !== undefined && own.model !== input.endpoint.model;
  const endpoint: Endpoint = {
    baseUrl: own.baseUrl ?? input.endpoint.baseUrl,
    // Another server does not serve the session's model name; its own is discovered when unset.
    model: own.model ?? (sameServer ? input.endpoint.model : ''),
    requestTimeoutMs: input.endpoint.requestTimeoutMs,
    ...((own.apiKey ?? input.endpoint.apiKey) !== undefined ? { apiKey: own.apiKey ?? input.endpoint.apiKey } : {}),
    // An error names the setting to fix: the subagents' own, else the session's.
    ...variables({
      keyVariable: own.apiKey !== undefined ? 'REIKA_SUBAGENT_API_KEY' : input.endpoint.keyVariable,
      urlVariable: own.baseUrl !== undefined ? 'REIKA_SUBAGENT_BASE_URL' : input.endpoint.urlVariable,
      modelVariable: own.model !== undefined || !sameServer ? 'REIKA_SUBAGENT_MODEL' : input.endpoint.modelVariable,
    }),
    // The session's llama-server: prefill progress too (the wave gives each subagent its slot).
    ...(sameServer && input.endpoint.llamaCpp?.progress ? { llamaCpp: { progress: true } } : {}),
  };
  const discover = !sameServer || ownModel;
  return {
    root: input.root,
    system: input.system,
    tools: input.tools,
    endpoint,
    ...(!discover && input.window !== undefined ? { window: input.window } : {}),
    discover,
    ...(input.config.maxTokens !== undefined ? { maxTokens: input.config.maxTokens } : {}),
    maxTurns: Math.max(1, own.maxTurns),
    approvals: input.approvals,
    toolSettings: input.toolSettings,
    ...(input.permissions ? { permissions: input.permissions } : {}),
    ...(input.hooks ? { hooks: input.hooks } : {}),
  };
}

/**
 * With REIKA_SUBAGENT_PROFILES, one brief per named profile: the subagents of a wave take them in
 * turn, so a wave spreads over several servers (scale-out is the engines' job; reika only spreads).
 * An endpoint whose model or window is not configured is asked once. Empty without the setting.
 */
export function spreadBriefs(input: BriefInput): SubagentBrief[] {
  const base = subagentBrief(input);
  return input.config.subagent.profiles.flatMap((name) => {
    const profile = input.config.profiles?.find((p) => p.name === name);
    if (!profile) return [];
    const sameAsSession = profile.baseUrl === input.endpoint.baseUrl && (profile.model ?? input.endpoint.model) === input.endpoint.model;
    const window = profile.contextWindow ?? (sameAsSession ? input.window : undefined);
    const endpoint: Endpoint = {
      baseUrl: profile.baseUrl,
      model: profile.model ?? (profile.baseUrl === input.endpoint.baseUrl ? input.endpoint.model : ''),
      requestTimeoutMs: input.endpoint.requestTimeoutMs,
      ...(profile.apiKey !== undefined ? { apiKey: profile.apiKey } : {}),
      ...(profile.name !== 'default' ? { keyVariable: `${profilePrefix(profile.name)}API_KEY`, urlVariable: `${profilePrefix(profile.name)}BASE_URL`, modelVariable: `${profilePrefix(profile.name)}MODEL` } : {}),
    };
    const { window: _ignored, ...rest } = base;
    return [{ ...rest, endpoint, ...(window !== undefined ? { window } : {}), discover: endpoint.model === '' || window === undefined }];
  });
}

/** The variables an endpoint's errors name, those set only. */
function variables(named: Pick<Endpoint, 'keyVariable' | 'urlVariable' | 'modelVariable'>): Pick<Endpoint, 'keyVariable' | 'urlVariable' | 'modelVariable'> {
  return Object.fromEntries(Object.entries(named).filter(([, value]) => value !== undefined));
}
