import type { ChatRequest } from '../http/stream-chat.js';
import type { ChatReply, DiscoverReply, Endpoint } from '../protocol.js';
import { EmbeddedEngine, type EmbeddedChatContext } from './engine.js';

// model-io's door to the embedded engine (imported only when an endpoint says `engine:
// 'embedded'`). One engine per thread: a request for another model file or other settings
// disposes the loaded one first, since two models rarely fit in memory. A load that failed is
// tried again by the next request (the user may have fixed the file meanwhile).

let current: { key: string; engine: Promise<EmbeddedEngine> } | undefined;

function engineFor(endpoint: Endpoint): Promise<EmbeddedEngine> {
  const key = JSON.stringify([endpoint.model, endpoint.embedded ?? {}]);
  if (current?.key !== key) {
    const previous = current?.engine;
    const engine = (async () => {
      await previous?.then((old) => old.dispose(), () => undefined);
      return EmbeddedEngine.open(endpoint.model, endpoint.embedded ?? {});
    })();
    const entry = { key, engine };
    current = entry;
    engine.catch(() => {
      if (current === entry) current = undefined;
    });
  }
  return current!.engine;
}

export async function embeddedChat(request: ChatRequest, context: EmbeddedChatContext): Promise<ChatReply> {
  return (await engineFor(request.endpoint)).chat(request, context);
}

/** Loads the model (at session start, while the bootstrap runs) and says what runs. */
export async function embeddedDiscover(endpoint: Endpoint): Promise<DiscoverReply> {
  return (await engineFor(endpoint)).discover();
}

export async function disposeEmbedded(): Promise<void> {
  const engine = current?.engine;
  current = undefined;
  await engine?.then((loaded) => loaded.dispose(), () => undefined);
}
