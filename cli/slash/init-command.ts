import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { creationDiff, editDiff } from '../../actors/tool-executor/files/diff.js';
import type { SlashCommand } from './slash-context.js';

/** The message the model gets; `existing` when the project has an AGENTS.md already. */
export function initPrompt(existing: boolean): string {
  return [
    existing
      ? 'Improve this project\'s AGENTS.md (its current text is in your instructions): keep what is still true, fix what is wrong, add what is missing.'
      : 'Draft an AGENTS.md for this project: the instructions another coding agent needs to work in it.',
    'Investigate first with the read-only tools: the README, the build and package files, the test setup, CI configuration, and a few central source files (the repo map is a start).',
    'Cover, briefly and only with what you verified: what the project is; the exact commands to install, build, test (a single test too) and lint; the layout of the main folders; the code conventions that are not obvious; anything an agent must not do.',
    'This turn is read-only: do not try to write the file. End with the complete file, and nothing after it, in one fenced block that starts with ```markdown.',
  ].join('\n');
}

/**
 * The file the answer holds. Models fence the draft in ```markdown and put ``` blocks inside it,
 * so the draft runs from the first ```markdown (or ```md) line to the last line that closes that
 * fence; without one it is the last fenced block, else the whole answer.
 */
export function draftOf(answer: string): string {
  const lines = answer.split('\n');
  const open = lines.findIndex((line) => /^(`{3,}|~{3,})[ \t]*(markdown|md)[ \t]*$/i.test(line));
  let text: string;
  if (open >= 0) {
    const fence = /^(`{3,}|~{3,})/.exec(lines[open]!)![1]!;
    const close = lines.findLastIndex((line, i) => i > open && line.trim() === fence);
    text = lines.slice(open + 1, close > open ? close : undefined).join('\n');
  } else {
    const blocks = [...answer.matchAll(/^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm)];
    text = blocks.at(-1)?.[2] ?? answer;
  }
  text = text.trim();
  return text === '' ? '' : `${text}\n`;
}

/**
 * `/init`: the model drafts an `AGENTS.md` for the project in a read-only turn (it investigates
 * with plan mode's tools and cannot write anything itself); the draft is shown as a diff in the
 * approval menu and written only when the user approves it. The new file reaches the system
 * prompt at the next bootstrap (`/cd .`), as AGENTS.md is part of the frozen prefix.
 */
export const initCommand: SlashCommand = {
  name: 'init',
  help: 'have the model draft AGENTS.md for this project (shown as a diff, written only if you approve)',
  idleOnly: true,
  async run(context) {
    if (!context.send || !context.ask) return context.error('/init needs the interactive terminal');
    const root = context.session.facts().root;
    const file = join(root, 'AGENTS.md');
    const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    const outcome = await context.send(initPrompt(before !== undefined), { shown: '/init', readOnly: true });
    if (outcome.status !== 'done') return context.error(`/init: no draft (${outcome.status === 'aborted' ? 'interrupted' : (outcome.error ?? 'the turn failed')}); nothing was written`);
    const draft = draftOf(outcome.answer ?? '');
    if (draft === '') return context.error('/init: the model gave no draft; nothing was written');
    if (draft === before) return context.print('AGENTS.md: the draft is the file as it is; nothing to write');
    const diff = before === undefined ? creationDiff('AGENTS.md', draft) : editDiff('AGENTS.md', before, draft).text;
    const reply = await context.ask({ type: 'approve', tool: 'init', reason: `${before === undefined ? 'create' : 'replace'} AGENTS.md with the model's draft`, path: 'AGENTS.md', diff });
    if (reply.decision === 'decline') return context.print('AGENTS.md not written (declined)');
    // Written whole or not at all: a crash mid-write must not leave half a file.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, draft);
    renameSync(temp, file);
    const lines = draft.split('\n').length - 1;
    context.print(`wrote AGENTS.md (${lines} line${lines === 1 ? '' : 's'}); the model reads it from the next bootstrap on (/cd . now, or a new session)`);
  },
};
