import { client } from '../../runtime/actor.js';
import type { Router } from '../../runtime/calls.js';
import { ReikaError } from '../../runtime/errors.js';
import { pollTurn } from '../../runtime/poll-turn.js';
import { endpointOf, type Config, type Profile } from '../config/load-config.js';
import { MODEL_IO, type Endpoint, type EngineInfo } from '../model-io/protocol.js';

/** A profile made usable: the endpoint with its model settled, and the window when known. */
export interface Connection {
  profile: string;
  endpoint: Endpoint;
  /** From the profile's CONTEXT_WINDOW, else what the server says. */
  window?: number;
  /** What the server listed (empty when it lists nothing or was not asked). */
  models: string[];
  /** The embedded engine running the model, when it does (model, window, threads, backend). */
  engine?: EngineInfo;
  /** The window the server stated, when asked (kept for the next start: engine-memory.ts). */
  discoveredWindow?: number;
}

/**
 * Settles the model and the context window of a profile. The server is asked (model-io
 * `discover`) unless both are configured. With REIKA_MODEL unset, a server offering exactly one
 * model gets that one; otherwise the error names the setting and what the server offers.
 */
export async function connect(router: Router, profile: Profile, config: Config, options: { scope?: string } = {}): Promise<Connection> {
  const endpoint = endpointOf(profile, config);
  const prefix = profile.name === 'default' ? 'REIKA_' : `REIKA_${profile.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_`;
  // The embedded engine is always asked: that loads the model while the bootstrap runs.
  if (endpoint.model !== '' && profile.contextWindow !== undefined && endpoint.engine !== 'embedded') {
    return { profile: profile.name, endpoint, window: profile.contextWindow, models: [] };
  }
  // An interrupt that came meanwhile is seen before the server is asked (the scope then refuses it).
  await pollTurn();
  const reply = await client(router, MODEL_IO).request({ type: 'discover', endpoint }, options);
  if (endpoint.model === '') {
    if (reply.models.length !== 1) {
      const offer = reply.models.length === 0 ? 'lists no models' : `offers ${reply.models.length} models (${reply.models.slice(0, 8).join(', ')}${reply.models.length > 8 ? ', …' : ''})`;
      throw new ReikaError('REIKA_ERR_MODEL_UNSET', `${prefix}MODEL is not set and the server at ${endpoint.baseUrl} ${offer} — set ${prefix}MODEL.`);
    }
    endpoint.model = reply.models[0]!;
  }
  return { profile: profile.name, endpoint, window: profile.contextWindow ?? reply.contextWindow, models: reply.models, ...(reply.engine ? { engine: reply.engine } : {}), ...(reply.contextWindow ? { discoveredWindow: reply.contextWindow } : {}) };
}
