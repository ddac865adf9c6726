import { client } from '../../runtime/actor.js';
import type { Router } from '../../runtime/calls.js';
import { MODEL_IO, type Endpoint } from '../model-io/protocol.js';
import { toDataUrl, type Image } from './image.js';

// Asks a vision model to transcribe an image's text and then describe it; the answer is what the
// main model sees in place of the image.

export const DESCRIBE_PROMPT =
  'First transcribe every piece of text in this image exactly as written (code, errors, labels), inside a fenced block. ' +
  'Then describe what the image shows in a few sentences: layout, diagrams, UI state, anything a programmer would need to act on it.';

export async function describeImage(router: Router, endpoint: Endpoint, image: Image, scope?: string): Promise<string> {
  const content = [
    { type: 'text' as const, text: DESCRIBE_PROMPT },
    { type: 'image_url' as const, image_url: { url: toDataUrl(image) } },
  ];
  const reply = await client(router, MODEL_IO).request({ type: 'chat', endpoint, messages: [{ role: 'user', content }], tools: [] }, { scope });
  return reply.text.trim();
}
