import type { ChatMessage, ToolSchema } from '../protocol.js';

// Compares two renderings of a session's consecutive requests through the engine's chat
// template. The engine reuses the tokens of the longest common prefix: where the new prompt
// departs from the previous one before the previous one's end, everything after that point is
// prefilled again. Names the cause from where the departure lies.

export type BreakCause = 'system-dropped' | 'system-moved' | 'tools-moved' | 'assistant-rerendered' | 'tool-rerendered' | 'user-rerendered' | 'other';

export interface TemplateBreak {
  cause: BreakCause;
  /** Character of the previous rendering where the new one departs. */
  at: number;
  /** Characters of the previous rendering from there on: cached once, prefilled again now. */
  lostChars: number;
  /** The same in tokens (characters / 4: the template check has no tokenizer). */
  lostTokens: number;
  /** One clause: what the template does. */
  description: string;
}

const DESCRIPTIONS: Record<BreakCause, string> = {
  'system-dropped': 'the template drops the system prompt once the conversation goes on',
  'system-moved': 'the template puts the system prompt into the newest user message, so it moves with every message',
  'tools-moved': 'the template puts the tools block before the newest user message, so every new message re-prefills from there',
  'assistant-rerendered': 'the template renders earlier assistant turns differently once a new user message comes (its reasoning handling)',
  'tool-rerendered': 'the template renders the last tool result differently once another message follows it',
  'user-rerendered': 'the template renders an earlier user message differently',
  other: 'the rendered prompt changes inside what was sent before',
};

export function describeCause(cause: BreakCause): string {
  return DESCRIPTIONS[cause];
}

/** Index of the first character where `a` and `b` differ (the shorter one's length when one is a prefix of the other). */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  // Compare in blocks first: a 120k-character prompt is mostly shared.
  const block = 256;
  while (i + block <= n && a.slice(i, i + block) === b.slice(i, i + block)) i += block;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export interface RenderedRequest {
  text: string;
  messages: readonly ChatMessage[];
  tools: readonly ToolSchema[];
}

/** Undefined when `next` extends `previous` (the engine reuses all of it). */
export function compareRenderings(previous: RenderedRequest, next: RenderedRequest): TemplateBreak | undefined {
  const at = commonPrefixLength(previous.text, next.text);
  if (at >= previous.text.length) return undefined;
  const cause = causeOf(previous, next, at);
  const lostChars = previous.text.length - at;
  return { cause, at, lostChars, lostTokens: Math.ceil(lostChars / 4), description: DESCRIPTIONS[cause] };
}

function textOf(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function causeOf(previous: RenderedRequest, next: RenderedRequest, at: number): BreakCause {
  const system = previous.messages[0]?.role === 'system' ? textOf(previous.messages[0]) : undefined;
  if (system) {
    const before = previous.text.indexOf(system);
    const after = next.text.indexOf(system);
    if (before >= 0 && after < 0) return 'system-dropped';
    if (before >= 0 && after !== before && at <= before + system.length) return 'system-moved';
  }
  const marker = previous.tools[0]?.function.description || previous.tools[0]?.function.name;
  if (marker) {
    const before = previous.text.indexOf(marker);
    const after = next.text.indexOf(marker);
    if (before >= 0 && after >= 0 && before !== after && at <= before) return 'tools-moved';
  }
  // The first message whose words end at or after the departure is the one rendered anew.
  let cursor = 0;
  let last: ChatMessage | undefined;
  for (const message of previous.messages) {
    const words = signature(message);
    if (!words) continue;
    const start = previous.text.indexOf(words, cursor);
    if (start < 0) continue;
    const end = start + words.length;
    last = message;
    if (end >= at) return causeOfRole(message.role);
    cursor = end;
  }
  return last && cursor <= at ? causeOfRole(last.role) : 'other';
}

function causeOfRole(role: ChatMessage['role']): BreakCause {
  return role === 'assistant' ? 'assistant-rerendered' : role === 'tool' ? 'tool-rerendered' : role === 'user' ? 'user-rerendered' : 'other';
}

/** Words of a message that every template renders verbatim: its text, else its first call's name. */
function signature(message: ChatMessage): string {
  const text = textOf(message);
  if (text) return text;
  if (message.role === 'assistant' && message.tool_calls?.length) return message.tool_calls[0]!.function.name;
  return '';
}
