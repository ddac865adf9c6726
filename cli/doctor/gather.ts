import { endpointOf, type Config, type Profile } from '../../actors/config/load-config.js';
import { detectEngine } from '../../actors/model-io/engine/detect-engine.js';
import { discover } from '../../actors/model-io/engine/discover.js';
import type { EngineInfo } from '../../actors/model-io/protocol.js';
import { ReikaError } from '../../runtime/errors.js';
import { checkTemplate } from '../../actors/model-io/template-check/probe.js';
import type { DoctorInput } from './doctor-report.js';

// What `reika doctor` learns without a session: the server's models and window (`discover`) and
// its engine record (`detectEngine`) asked side by side, the chat template checked against a
// short recorded conversation, safety and the MCP servers. Nothing here throws for a server
// that is down: that becomes the report's first problem.

export function settingsPrefix(profile: Profile): string {
  return profile.name === 'default' ? 'REIKA_' : `REIKA_${profile.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_`;
}

export async function gatherServer(config: Config, profile: Profile, signal: AbortSignal): Promise<Pick<DoctorInput, 'profile' | 'prefix' | 'baseUrl' | 'configuredModel' | 'configuredWindow' | 'connectError' | 'connectKind' | 'models' | 'model' | 'engine' | 'template'>> {
  const endpoint = endpointOf(profile, config);
  const prefix = settingsPrefix(profile);
  const base = { profile: profile.name, prefix, baseUrl: profile.engine === 'embedded' ? `embedded: ${profile.model}` : profile.baseUrl, ...(profile.model ? { configuredModel: profile.model } : {}), ...(profile.contextWindow ? { configuredWindow: profile.contextWindow } : {}) };
  if (endpoint.engine === 'embedded') {
    try {
      const { embeddedDiscover, disposeEmbedded } = await import('../../actors/model-io/embedded/index.js');
      const reply = await embeddedDiscover(endpoint);
      await disposeEmbedded();
      return { ...base, models: reply.models, model: profile.model!, ...(reply.engine ? { engine: reply.engine } : {}) };
    } catch (error) {
      return { ...base, models: [], connectError: oneSentence(error), connectKind: 'unreachable' };
    }
  }
  const [discovered, engine] = await Promise.all([discover(endpoint, profile.contextWindow, signal).then((reply) => reply, (error: unknown) => error as Error), detectEngine(endpoint, signal)]);
  if (discovered instanceof Error) {
    const auth = ReikaError.isInstance(discovered) && discovered.code === 'REIKA_ERR_AUTH';
    return { ...base, models: [], connectError: auth ? `The server at ${profile.baseUrl} refused the API key.` : oneSentence(discovered), connectKind: auth ? 'auth' : 'unreachable', engine };
  }
  let model = profile.model;
  let connectError: string | undefined;
  // A llama-server with one model answers to any model name; with several (router mode) the name picks one.
  const anyName = engine.engine === 'ollama' || (engine.engine === 'llama.cpp' && discovered.models.length <= 1);
  if (!model) {
    if (discovered.models.length === 1) model = discovered.models[0];
    else connectError = `${prefix}MODEL is not set and the server ${discovered.models.length === 0 ? 'lists no models' : `offers ${discovered.models.length} models (${discovered.models.slice(0, 6).join(', ')}${discovered.models.length > 6 ? ', …' : ''})`}.`;
  } else if (discovered.models.length > 0 && !discovered.models.includes(model) && !anyName) {
    connectError = `The server has no model "${model}"; it offers ${discovered.models.slice(0, 6).join(', ')}${discovered.models.length > 6 ? ', …' : ''}.`;
  }
  if (engine.window === undefined && discovered.contextWindow !== undefined && !profile.contextWindow) {
    engine.window = discovered.contextWindow;
    engine.windowSource = 'models';
  }
  const template = engine.chatTemplate ? { findings: await checkTemplate(engine).catch(() => []) } : undefined;
  return { ...base, models: discovered.models, ...(model ? { model } : {}), engine, ...(connectError ? { connectError, connectKind: 'model' as const } : {}), ...(template ? { template } : {}) };
}

export function oneSentence(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!;
}

export type { EngineInfo };
