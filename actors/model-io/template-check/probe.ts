import { renderChatTemplate, type TemplateRequest } from '../engine/chat-template.js';
import type { ChatMessage, ServerEngineInfo, ToolSchema } from '../protocol.js';
import { placeSystem } from '../system-placement.js';
import { compareRenderings, type BreakCause } from './compare.js';

// What an engine's chat template does to reika's requests, found once at session start by
// rendering a short recorded session (two turns: prose and calls, a call with no text, tool
// results, an answer, a new question) request after request. Gives the doctor its template
// findings and the session its system placement.

/** Something the template does to reika's requests; `fix` when the user can change it. */
export interface TemplateFinding {
  kind: BreakCause | 'system-placement' | 'render-error';
  message: string;
  fix?: string;
}

export interface TemplateSource {
  template: string;
  bosToken?: string;
  eosToken?: string;
}

export interface TemplateProbe {
  /** `first-user`: the template loses or moves the system prompt; reika's system text goes into the first user message. */
  placement: 'system' | 'first-user';
  findings: TemplateFinding[];
  /** The template renders past turns' `reasoning_content`, and the prompts still extend each other with it. */
  keepsReasoning: boolean;
}

/**
 * The variables llama-server renders with by default (common/jinja/caps.cpp
 * `caps_apply_preserve_reasoning`, enabled unless `--no-reasoning-preserve`): templates that can
 * keep past reasoning (GLM-4.7, Nemotron 3) do.
 */
export const LLAMA_CPP_VARIABLES: Record<string, unknown> = { preserve_thinking: true, clear_thinking: false, truncate_history_thinking: false, drop_thinking: false };

/** llama.cpp's per-model message rewrite (common/chat.cpp), recognised from the template text. */
export function rewriteFor(template: string): TemplateRequest['rewrite'] {
  if (template.includes('<|channel|>') && template.includes('<|start|>')) return 'gpt-oss';
  if (template.includes('[SYSTEM_PROMPT]') && template.includes('[THINK]')) return 'ministral-3';
  return undefined;
}

const PROBE_SYSTEM = 'You are reika, a coding agent in a terminal. Answer briefly; use the tools to look at files.';

const PROBE_TOOLS: ToolSchema[] = [
  { type: 'function', function: { name: 'read', description: 'Reads a file: numbered lines from offset.', parameters: { type: 'object', properties: { path: { type: 'string', description: 'file path' } }, required: ['path'] } } },
  { type: 'function', function: { name: 'grep', description: 'Searches the indexed files with a regular expression.', parameters: { type: 'object', properties: { pattern: { type: 'string', description: 'JavaScript regex' } }, required: ['pattern'] } } },
];

function call(id: string, name: string, args: Record<string, unknown>): ChatMessage {
  return { role: 'assistant', content: '', tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] };
}

/** The requests of a recorded two-turn reika session, in the shape reika sends them. */
export function probeRequests(system = PROBE_SYSTEM): ChatMessage[][] {
  const m: ChatMessage[] = [{ role: 'system', content: system }, { role: 'user', content: 'What does src/a.ts export?' }];
  const requests: ChatMessage[][] = [];
  const take = () => requests.push(m.slice());
  take();
  m.push({ ...call('aB3dE6gH9', 'read', { path: 'src/a.ts' }), content: 'Let me read it.' } as ChatMessage, { role: 'tool', tool_call_id: 'aB3dE6gH9', content: '1\texport const a = 1;\n(end of file: 1 line)' });
  take();
  m.push(call('Zy8xW7vU6', 'grep', { pattern: '\\ba\\b' }), { role: 'tool', tool_call_id: 'Zy8xW7vU6', content: 'src/a.ts:1: export const a = 1;' });
  take();
  m.push({ role: 'assistant', content: 'It exports `a`, the number 1.' }, { role: 'user', content: 'And where is it used?' });
  take();
  m.push(call('Qw2eR4tY6', 'grep', { pattern: 'import' }), { role: 'tool', tool_call_id: 'Qw2eR4tY6', content: 'no matches' });
  take();
  return requests;
}

/** What `first-user` placement sends (actors/model-io/system-placement.ts). */
export function systemInFirstUser(messages: readonly ChatMessage[]): ChatMessage[] {
  return placeSystem(messages, 'first-user');
}

const FIX = 'start llama-server with --chat-template-file FILE holding a template that renders the history the same way at every request';

/** Renders the probe session through the template: where it keeps the system prompt, and each kind of break. */
export async function probeTemplate(source: TemplateSource): Promise<TemplateProbe> {
  const rewrite = rewriteFor(source.template);
  const render = (messages: ChatMessage[]) =>
    renderChatTemplate(source.template, { messages, tools: PROBE_TOOLS, bosToken: source.bosToken ?? '', eosToken: source.eosToken ?? '', generationPrompt: false, variables: LLAMA_CPP_VARIABLES, ...(rewrite ? { rewrite } : {}) });
  const requests = probeRequests();
  let texts: string[];
  try {
    texts = [];
    for (const messages of requests) texts.push(await render(messages));
  } catch (error) {
    return { placement: 'system', keepsReasoning: false, findings: [{ kind: 'render-error', message: `the template rejects reika's requests: ${(error as Error).message.split('\n')[0]}`, fix: 'start llama-server with --chat-template-file FILE holding the model’s current template' }] };
  }
  // The system prompt must stay where it was put, before the first user message, in every request.
  const lost = texts.some((text) => {
    const at = text.indexOf(PROBE_SYSTEM);
    return at < 0 || at > text.indexOf('What does src/a.ts export?');
  });
  let placement: TemplateProbe['placement'] = 'system';
  const findings: TemplateFinding[] = [];
  if (lost) {
    placement = 'first-user';
    findings.push({ kind: 'system-placement', message: 'the template drops or moves the system prompt: reika puts its instructions at the start of the first user message instead (decided at session start)' });
    texts = [];
    try {
      for (const messages of requests) texts.push(await render(systemInFirstUser(messages)));
    } catch (error) {
      return { placement: 'system', keepsReasoning: false, findings: [{ kind: 'render-error', message: `the template rejects reika's requests with the system text in the first user message: ${(error as Error).message.split('\n')[0]}` }] };
    }
  }
  const seen = new Set<BreakCause>();
  const sent = placement === 'first-user' ? requests.map(systemInFirstUser) : requests;
  for (let i = 1; i < texts.length; i++) {
    const found = compareRenderings({ text: texts[i - 1]!, messages: sent[i - 1]!, tools: PROBE_TOOLS }, { text: texts[i]!, messages: sent[i]!, tools: PROBE_TOOLS });
    if (!found || seen.has(found.cause)) continue;
    seen.add(found.cause);
    findings.push({ kind: found.cause, message: `${found.description} (request ${i + 1} of a probe session re-prefills ≈${found.lostTokens} tokens)`, fix: FIX });
  }
  return { placement, findings, keepsReasoning: await keepsReasoning(render, placement) };
}

const REASONING_MARK = 'I should read src/a.ts first to see its exports.';

/** Renders the probe with reasoning on the first assistant message: kept at the next user message, and append-only? */
async function keepsReasoning(render: (messages: ChatMessage[]) => Promise<string>, placement: TemplateProbe['placement']): Promise<boolean> {
  const withReasoning = probeRequests().map((messages) =>
    messages.map((message, i) => (message.role === 'assistant' && i === 2 ? { ...message, reasoning_content: REASONING_MARK } : message)),
  );
  try {
    const texts: string[] = [];
    for (const messages of withReasoning) texts.push(await render(placement === 'first-user' ? systemInFirstUser(messages) : messages));
    // The last request follows a new user message: the first turn's reasoning must still be there, in place.
    if (!texts.at(-1)!.includes(REASONING_MARK)) return false;
    return texts.every((text, i) => i === 0 || text.startsWith(texts[i - 1]!));
  } catch {
    return false;
  }
}

/** The doctor's findings for a detected engine (none when it exposes no template). */
export async function checkTemplate(engine: ServerEngineInfo): Promise<TemplateFinding[]> {
  if (!engine.chatTemplate) return [];
  return (await probeTemplate({ template: engine.chatTemplate, ...(engine.bosToken !== undefined ? { bosToken: engine.bosToken } : {}), ...(engine.eosToken !== undefined ? { eosToken: engine.eosToken } : {}) })).findings;
}
