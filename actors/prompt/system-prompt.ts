import type { AgentMode } from '../agent-mode.js';
import type { AgentsFile } from '../indexer/agents-md.js';
import { renderSummary, type ProjectSummary } from './project-summary.js';
import { renderSkills, type Skill } from './skills.js';

// The ONE system-prompt builder. Modes differ only by the lines chosen here, so they cannot
// drift apart; the result is built once per session and never edited (the prefix cache depends
// on it). Nudges for the model go in trailing user messages, never in here.

/** The bootstrap facts the prompt is made of (frozen for the session). */
export interface PromptFacts {
  /** Absolute project root (the session's cwd). */
  cwd: string;
  summary: ProjectSummary;
  agentsMd: readonly AgentsFile[];
  /** The repo map text (`path: name, …` lines). */
  repoMap: string;
  /** How many files the index holds, and whether a cap cut it short. */
  indexedFiles: number;
  capped: boolean;
  /** True when nobody can answer approval prompts (headless). */
  headless: boolean;
  /** The skills' names, descriptions and files (`skills.ts`); their bodies are read on demand. Not for subagents. */
  skills?: readonly Skill[];
}

const ROLE: Record<AgentMode, string> = {
  agent: 'You are reika, a coding agent working in the user\'s project through tools. You read, edit and run commands until the task is done, then answer briefly.',
  plan: 'You are reika in plan mode: you investigate the user\'s project through read-only tools and answer with a concrete plan. You do not change files.',
  subagent: 'You are a reika subagent: another agent gave you one task. Investigate it with read-only tools and end with one report that the other agent can act on.',
};

const RULES: Record<AgentMode, string[]> = {
  agent: [
    'Read before you edit. `edit` replaces exactly one occurrence of old_string: include enough surrounding lines to make it unique. For several changes to one file, pass them together as `edits`.',
    '`write` only creates new files; change existing files with `edit`.',
    'Run the tests or the build with `bash` after a change when the project has them, and fix what you broke.',
    'For a task of several steps, keep a short plan with `todo` (the whole list each time) and mark each item as you go; skip it for a one-step task.',
    'Keep going without asking for confirmation until the task is done; then answer in a few sentences: what you changed and how you checked it.',
  ],
  plan: [
    'Only read-only tools are available; `bash` accepts read-only commands only.',
    'Answer with a numbered plan naming the files and functions to change and how to verify the change.',
  ],
  subagent: [
    'Only read-only tools are available. Read what the task needs, nothing more.',
    'Your final message is your report: the facts found, with file paths and line numbers, then the files the task named that you did not read.',
  ],
};

const COMMON_RULES = [
  'Paths are relative to the project root or absolute.',
  'Each tool result starts with a one-line summary. Older outputs may later be shortened to that summary to save context: run the tool again if you need the content back.',
  'Call one tool at a time unless the calls are independent. Do not repeat a call that gave the same result before.',
  'If a tool reports an error, read the error and change your approach instead of retrying the same call.',
];

/** Builds the system prompt for `mode` from the session's frozen facts. */
export function buildSystemPrompt(mode: AgentMode, facts: PromptFacts): string {
  const parts: string[] = [ROLE[mode], '', '# Rules', ...[...RULES[mode], ...COMMON_RULES].map((rule) => `- ${rule}`)];
  if (facts.headless && mode !== 'subagent') {
    parts.push('- You run headless: nobody can approve actions, so any action that needs approval (dangerous commands, writes outside the project) is declined. Find another way or say what the user should run.');
  }
  parts.push('', '# Project', `Working directory: ${facts.cwd}`, renderSummary(facts.summary));
  parts.push(`Indexed files: ${facts.indexedFiles}${facts.capped ? ' (the index stopped at its caps; use list/glob for the rest)' : ''}`);
  for (const file of facts.agentsMd) parts.push('', `# Instructions from ${file.path}`, file.content);
  if (mode !== 'subagent') parts.push(...renderSkills(facts.skills ?? []));
  if (facts.repoMap.trim() !== '') {
    parts.push('', '# Repo map (files ranked by importance, with their top-level definitions)', facts.repoMap.trimEnd());
  }
  return `${parts.join('\n')}\n`;
}
