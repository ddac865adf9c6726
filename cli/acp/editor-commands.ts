import type { AvailableCommand } from '@agentclientprotocol/sdk';
import type { Session } from '../../actors/session/session.js';
import { loadCustomCommands } from '../slash/custom-commands.js';
import { formatTokens } from '../tui/status-line.js';

// The `/` commands a prompt in the editor can start with (ACP `available_commands_update`): the
// built-ins that make sense there (modes and approvals are the editor's own controls) and the
// custom commands of `.reika/commands/` and `~/.config/reika/commands/`, which expand to their
// prompt as in the terminal.

interface BuiltIn {
  name: string;
  description: string;
  /** What it says back; it runs while no turn does. */
  run(session: Session): string;
}

const BUILT_INS: readonly BuiltIn[] = [
  {
    name: 'compact',
    description: 'fold the oldest rounds of the context into a recap now (one compaction event)',
    run(session) {
      const event = session.compact();
      return event ? `compacted: ${formatTokens(event.beforeTokens)} → ${formatTokens(event.afterTokens)} tokens (${event.folded} old rounds folded into a recap)` : 'nothing to compact yet';
    },
  },
  {
    name: 'tokens',
    description: 'the context size and the session’s token and cache figures',
    run(session) {
      const info = session.info();
      const window = info.window ? ` of a ${formatTokens(info.window)} window` : ' (window unknown)';
      const { promptTokens, cachedTokens, completionTokens } = info.usage;
      const cached = promptTokens > 0 ? ` (${Math.round((cachedTokens / promptTokens) * 100)}% from the engine's cache)` : '';
      return `context ≈${formatTokens(info.estimateTokens)} tokens${window} · ${info.requests} requests · prompt ${formatTokens(promptTokens)}${cached}, completion ${formatTokens(completionTokens)}`;
    },
  },
];

export function availableCommands(root: string, userFolder: string): AvailableCommand[] {
  const custom = loadCustomCommands(root, userFolder).commands.filter((command) => !BUILT_INS.some((builtIn) => builtIn.name === command.name));
  return [
    ...BUILT_INS.map((command) => ({ name: command.name, description: command.description })),
    ...custom.map((command) => ({ name: command.name, description: command.description || `.reika/commands/${command.name}.md`, input: { hint: command.args ?? 'arguments' } })),
  ];
}

/** Runs `/compact` or `/tokens` when the prompt is one of them; undefined for anything else. */
export function runBuiltIn(text: string, session: Session): string | undefined {
  const match = /^\/([a-z]+)\s*$/.exec(text.trim());
  const command = match ? BUILT_INS.find((builtIn) => builtIn.name === match[1]) : undefined;
  return command?.run(session);
}
