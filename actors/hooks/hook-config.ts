// The `hooks` block of a settings file (SPEC §17), in Claude Code's shape:
// `{Event: [{matcher, hooks: [{type: "command", command, timeout}]}]}`. Read into flat entries,
// one per command; what cannot be used is one line naming the file and the key, and the rest loads.

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'SessionStart', 'SessionEnd', 'PreCompact', 'Notification'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Events whose matcher is tried on a tool name; the others ignore it. */
const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PostToolUse']);

/** A hook's command runs at most this long unless its `timeout` (seconds) says otherwise. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** One hook command as data (it travels to subagent threads). */
export interface HookEntry {
  event: HookEvent;
  /** A case-insensitive regular expression on tool names; undefined (or `*`, or empty) matches every tool. */
  matcher?: string;
  command: string;
  timeoutMs: number;
  /** The settings file it came from, for its one-line failures. */
  file: string;
}

export function readHooks(block: unknown, file: string): { entries: HookEntry[]; problems: string[] } {
  const entries: HookEntry[] = [];
  const problems: string[] = [];
  if (block === undefined || block === null) return { entries, problems };
  if (typeof block !== 'object' || Array.isArray(block)) return { entries, problems: [`${file}: "hooks" is not an object; no hook of this file runs`] };
  for (const [event, groups] of Object.entries(block as Record<string, unknown>)) {
    const where = `${file}: hooks.${event}`;
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      problems.push(`${where}: not an event reika knows (${HOOK_EVENTS.join(', ')}); ignored`);
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push(`${where}: not a list of {matcher, hooks}; ignored`);
      continue;
    }
    groups.forEach((group: unknown, i) => {
      const at = `${where}[${i}]`;
      if (group === null || typeof group !== 'object' || !Array.isArray((group as { hooks?: unknown }).hooks)) {
        problems.push(`${at}: has no "hooks" list; ignored`);
        return;
      }
      const { matcher, hooks } = group as { matcher?: unknown; hooks: unknown[] };
      let pattern: string | undefined;
      if (matcher !== undefined && matcher !== null && matcher !== '' && matcher !== '*') {
        if (typeof matcher !== 'string') {
          problems.push(`${at}.matcher: not a string; ignored`);
          return;
        }
        try {
          new RegExp(matcher, 'i');
        } catch (error) {
          problems.push(`${at}.matcher: not a regular expression (${(error as Error).message}); ignored`);
          return;
        }
        if (TOOL_EVENTS.has(event as HookEvent)) pattern = matcher;
      }
      hooks.forEach((hook: unknown, j) => {
        const here = `${at}.hooks[${j}]`;
        const { type, command, timeout } = (hook ?? {}) as { type?: unknown; command?: unknown; timeout?: unknown };
        if (type !== 'command') return void problems.push(`${here}: type ${JSON.stringify(type)} is not "command"; ignored`);
        if (typeof command !== 'string' || command.trim() === '') return void problems.push(`${here}: has no command; ignored`);
        if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0 && Number.isFinite(timeout))) {
          return void problems.push(`${here}.timeout: not a number of seconds; ignored`);
        }
        entries.push({ event: event as HookEvent, ...(pattern !== undefined ? { matcher: pattern } : {}), command, timeoutMs: timeout === undefined ? DEFAULT_HOOK_TIMEOUT_MS : Math.round(timeout * 1000), file });
      });
    });
  }
  return { entries, problems };
}

/** True when `entry` runs for a call of `tool` (a matcher anchored to the whole name, as Claude Code's are). */
export function hookMatches(entry: HookEntry, tool: string | undefined): boolean {
  if (entry.matcher === undefined || tool === undefined) return true;
  return new RegExp(`^(?:${entry.matcher})$`, 'i').test(tool) || new RegExp(`^(?:${entry.matcher})$`, 'i').test(claudeName(tool));
}

/** reika's tool names as Claude Code spells them, so `Edit|Write` or `Bash` matchers paste in. */
function claudeName(tool: string): string {
  const names: Record<string, string> = { bash: 'Bash', read: 'Read', edit: 'Edit', write: 'Write', glob: 'Glob', grep: 'Grep', list: 'LS', fetch: 'WebFetch', subagent: 'Task' };
  return names[tool] ?? tool;
}
