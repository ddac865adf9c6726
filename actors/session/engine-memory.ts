import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildId } from '../indexer/bootstrap-cache.js';
import type { ServerEngineInfo } from '../model-io/protocol.js';
import { projectKey, stateFolder } from '../state-dir.js';

// What a server said of itself last time, per base URL and configured model, beside the bootstrap
// cache in the state folder (`<state>/engines/<key>.json`): the models it listed, the window it
// stated, its engine record. A warm start connects from it and asks the server nothing before its
// first request has gone; then the session asks once (ModelLink) and keeps the fresh answers for
// this start and the next. Written only after a detection that reached the server; from another
// build of reika, unreadable or corrupt, it is a miss.

export interface RememberedEngine {
  /** The model the session settled on (the configured one, or the server's only model). */
  model: string;
  models: string[];
  /** The window the server stated (not the configured one). */
  contextWindow?: number;
  engine?: ServerEngineInfo;
}

interface Stored extends RememberedEngine {
  build: string;
  baseUrl: string;
  configuredModel: string;
}

function fileOf(baseUrl: string, configuredModel: string, stateHome: string): string {
  return join(stateHome, 'engines', `${projectKey(`${baseUrl}\0${configuredModel}`)}.json`);
}

export function recallEngine(baseUrl: string, configuredModel: string, stateHome = stateFolder()): RememberedEngine | undefined {
  const build = buildId();
  if (build === null) return undefined;
  try {
    const stored = JSON.parse(readFileSync(fileOf(baseUrl, configuredModel, stateHome), 'utf8')) as Stored;
    if (stored.build !== build || stored.baseUrl !== baseUrl || stored.configuredModel !== configuredModel || typeof stored.model !== 'string' || stored.model === '' || !Array.isArray(stored.models)) return undefined;
    return { model: stored.model, models: stored.models, ...(stored.contextWindow ? { contextWindow: stored.contextWindow } : {}), ...(stored.engine ? { engine: stored.engine } : {}) };
  } catch {
    return undefined;
  }
}

/** Keeps what the server said (best effort: a state folder that cannot be written loses nothing). */
export function rememberEngine(baseUrl: string, configuredModel: string, facts: RememberedEngine, stateHome = stateFolder()): void {
  const build = buildId();
  if (build === null) return;
  const file = fileOf(baseUrl, configuredModel, stateHome);
  // A snapshot of a moment: how busy the slots were is not a fact worth keeping.
  const engine = facts.engine ? { ...facts.engine, busySlots: undefined } : undefined;
  const stored: Stored = { build, baseUrl, configuredModel, ...facts, ...(engine ? { engine } : {}) };
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(stored), { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // not kept: the next start asks the server
  }
}
