import type { Router } from '../../runtime/calls.js';
import type { ChatReply, Endpoint, ModelIoRequest } from '../model-io/protocol.js';
import { toDataUrl, type Image } from './image.js';

/**
 * Asks a vision model to transcribe an image's text and then describe it; the answer is what the
 * main model sees in place of the image.
 */

export const DESCRIBE_PROMPT =
  'First transcribe every piece of text in this image exactly as written (code, errors, labels), inside a fenced block. ' +
  'Then describe what the image shows in a few sentences: layout, diagrams, UI state, anything a programmer would need to act on it.';

export async function describeImage(router: Router, endpoint: Endpoint, image: Image, signal?: AbortSignal): Promise<string> {
  const request: ModelIoRequest = {
    type: 'chat',
    endpoint,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: DESCRIBE_PROMPT },
          { type: 'image_url', image_url: { url: toDataUrl(image) } },
        ],
      },
    ],
    tools: [],
  };
  const reply = await router.request<ChatReply>('model-io', request, { signal });
  return reply.text.trim();
}
