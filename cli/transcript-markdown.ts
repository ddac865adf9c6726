import { longestBacktickRun } from '../actors/backticks.js';
import type { Transcript } from '../actors/transcript/read-transcript.js';
import { shortDate } from './describe-sessions.js';

/** Output lines of a tool shown under its call. */
const PAYLOAD_LINES = 20;

/**
 * `/save`: a transcript as Markdown a person reads — each turn's prompt, the model's answers,
 * every tool call with its one-line summary and the start of its output, notes to the model,
 * compactions and how turns ended. The JSONL stays the record; this is the readable copy.
 */
export function transcriptMarkdown(transcript: Transcript): string {
  const { header } = transcript;
  const out: string[] = [`# reika session ${header.id}`, '', `- folder: \`${header.root}\``, `- started: ${shortDate(header.created)}`, `- reika ${header.reika}`];
  let turn = 0;
  let settings = '';
  const calls = new Map<string, { name: string; args: string }[]>();
  for (const event of transcript.events) {
    switch (event.type) {
      case 'settings': {
        const line = `mode ${event.mode} · approvals ${event.approvals} · profile ${event.profile}${event.model ? ` · model ${event.model}` : ''}`;
        if (line !== settings) out.push('', `_${line}_`);
        settings = line;
        break;
      }
      case 'turn-start':
        turn++;
        out.push('', `## ${turn}. ${shortDate(event.at)}`, '', '**You:**', '', event.prompt.trimEnd());
        break;
      case 'turn-end':
        if (event.status !== 'answered') out.push('', `_the turn ended: ${event.status}${event.error ? ` — ${event.error}` : ''}_`);
        break;
      case 'compaction':
        out.push('', `_context compacted (${event.reason}): ${event.folded} rounds folded, ${event.beforeTokens} → ${event.afterTokens} tokens_`);
        break;
      case 'ctx':
        if (event.op === 'assistant') {
          if (event.text.trim() !== '') out.push('', '**reika:**', '', event.text.trimEnd());
          // Each result is written with its call; results name the id the call came with (a server may reuse one).
          for (const call of event.calls) calls.set(call.id, [...(calls.get(call.id) ?? []), { name: call.name, args: JSON.stringify(call.arguments) }]);
        } else if (event.op === 'tool-result') {
          const call = calls.get(event.result.callId)?.shift();
          const args = call?.args ?? '';
          out.push('', `- \`${event.result.name}\` ${args.length > 200 ? `${args.slice(0, 200)}…` : args} — ${event.result.summary}${event.result.status && event.result.status !== 'done' ? ` (${event.result.status})` : ''}`);
          if (event.result.payload.trim() !== '') out.push('', ...fenced(event.result.payload));
        } else if (event.op === 'nudge') {
          out.push('', `> _note to the model:_ ${event.text.replace(/\n/g, ' ')}`);
        } else if (event.op === 'user-images') {
          out.push('', ...event.notes.map((note) => `> _image:_ ${note.replace(/\n/g, ' ')}`));
        }
        break;
      default:
        break;
    }
  }
  return `${out.join('\n')}\n`;
}

/** The first lines of an output in a fence no line of it can close. */
function fenced(payload: string): string[] {
  const lines = payload.trimEnd().split('\n');
  const shown = lines.slice(0, PAYLOAD_LINES);
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(payload) + 1));
  return ['  ' + fence, ...shown.map((line) => `  ${line}`), ...(lines.length > PAYLOAD_LINES ? [`  … ${lines.length - PAYLOAD_LINES} more lines`] : []), '  ' + fence];
}
