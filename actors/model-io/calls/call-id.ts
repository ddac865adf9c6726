import { customAlphabet } from 'nanoid';

/**
 * Mints the id of a tool call the server left without one (text-format calls, native calls with no
 * id): 9 ASCII letters and digits, the only shape Mistral's chat templates accept (they raise on any
 * other id when the conversation is rendered again), and one every other template passes through.
 */
export const mintCallId: () => string = customAlphabet('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 9);

const TEMPLATE_SAFE = /^[A-Za-z0-9]{9}$/;

/**
 * The id a call gets in the conversation history: its own when it already has the one shape every
 * template accepts (and no other call of its reply took it), else a fresh 9-character one. Ids only
 * pair a call with its result inside reika's own messages, so a server's `call_…` or
 * `chatcmpl-tool-…` ids are never needed again; chosen once when the reply is recorded, the id
 * never changes, so later requests keep the same prefix.
 */
export function historyCallId(id: string, taken: ReadonlySet<string>): string {
  if (TEMPLATE_SAFE.test(id) && !taken.has(id)) return id;
  let minted: string;
  do minted = mintCallId();
  while (taken.has(minted));
  return minted;
}
