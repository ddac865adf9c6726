import { parentPort } from 'node:worker_threads';
import { renderChatTemplate } from '../engine/chat-template.js';
import { compareRenderings, type RenderedRequest } from './compare.js';
import { LLAMA_CPP_VARIABLES, probeTemplate, rewriteFor, type TemplateSource } from './probe.js';
import type { CheckerRequest, CheckerReply } from './template-checker.js';

// Runs inside the template checker's worker thread: renders requests through the engine's chat
// template with @huggingface/jinja and compares each with the previous one of its sequence. The
// previous rendering stays here, so only the messages cross the thread boundary.

let source: TemplateSource | undefined;
let rewrite: ReturnType<typeof rewriteFor>;
const previous = new Map<string, RenderedRequest>();

async function handle(request: CheckerRequest): Promise<CheckerReply> {
  switch (request.type) {
    case 'template':
      source = request.source;
      rewrite = rewriteFor(request.source.template);
      previous.clear();
      return { id: request.id, type: 'done' };
    case 'probe':
      if (!source) throw new Error('no template set');
      return { id: request.id, type: 'probe', probe: await probeTemplate(source) };
    case 'render': {
      if (!source) throw new Error('no template set');
      const started = performance.now();
      const text = await renderChatTemplate(source.template, {
        messages: request.messages,
        tools: request.tools,
        bosToken: source.bosToken ?? '',
        eosToken: source.eosToken ?? '',
        generationPrompt: false,
        variables: LLAMA_CPP_VARIABLES,
        ...(rewrite ? { rewrite } : {}),
      });
      const rendered: RenderedRequest = { text, messages: request.messages, tools: request.tools };
      const before = previous.get(request.key);
      previous.set(request.key, rendered);
      const found = before ? compareRenderings(before, rendered) : undefined;
      return { id: request.id, type: 'render', chars: text.length, ms: performance.now() - started, ...(found ? { break: found } : {}) };
    }
    case 'forget':
      previous.delete(request.key);
      return { id: request.id, type: 'done' };
  }
}

parentPort!.on('message', (request: CheckerRequest) => {
  handle(request).then(
    (reply) => parentPort!.postMessage(reply),
    (error: unknown) => parentPort!.postMessage({ id: request.id, type: 'error', message: (error as Error)?.message?.split('\n')[0] ?? String(error) } satisfies CheckerReply),
  );
});
