import { customAlphabet } from 'nanoid';

/**
 * Mints the id of a tool call the server left without one (text-format calls, native calls with no
 * id): 9 ASCII letters and digits, the only shape Mistral's chat templates accept (they raise on any
 * other id when the conversation is rendered again), and one every other template passes through.
 */
export const mintCallId: () => string = customAlphabet('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 9);
