import type { ChatMessage } from './protocol.js';

/**
 * Where reika's system prompt goes. `system` (the rule): a system message first. `first-user`:
 * for chat templates that drop or move the system message (Mistral-Nemo's renders it only with
 * the last message, and only when that is a user message, so from the second request on the
 * model never sees reika's instructions), the system text opens the first user message instead,
 * where every template keeps it and it never moves. Decided once per session, at its start, so
 * the prefix stays stable.
 */
export type SystemPlacement = 'system' | 'first-user';

export function placeSystem(messages: readonly ChatMessage[], placement: SystemPlacement): ChatMessage[] {
  if (placement === 'system' || messages[0]?.role !== 'system') return [...messages];
  const system = messages[0].content;
  const rest = messages.slice(1);
  const first = rest.findIndex((message) => message.role === 'user');
  if (first < 0) return [...messages];
  const user = rest[first] as Extract<ChatMessage, { role: 'user' }>;
  const content = typeof user.content === 'string' ? `${system}\n\n${user.content}` : [{ type: 'text' as const, text: `${system}\n\n` }, ...user.content];
  rest[first] = { role: 'user', content };
  return rest;
}
