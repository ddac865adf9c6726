import { IMAGE_TOKENS } from '../../actors/images/image.js';
import { formatTokens, cacheHitRate } from '../tui/status-line.js';
import { wrapLine } from '../tui/text-width.js';
import type { SessionMode } from '../tui/session-port.js';
import type { SlashCommand, SlashContext } from './slash-context.js';
import { lastCommand } from './last-command.js';
import { initCommand } from './init-command.js';
import { permissionsCommand } from './permissions-command.js';
import { expandCommand, type CustomCommand, type CustomCommands } from './custom-commands.js';
import { closest } from './suggest.js';

const MODES: SessionMode[] = ['agent', 'plan'];

/** The slash commands, in the order /help lists them. */
export const SLASH_COMMANDS: readonly SlashCommand[] = [
  {
    name: 'help',
    help: 'list commands and keys',
    run(context) {
      const { style } = context;
      const custom = customCommands(context);
      const listed = [...SLASH_COMMANDS.map((c) => ({ name: c.name, args: c.args, help: c.aliases ? `${c.help} (also ${c.aliases.map((a) => `/${a}`).join(', ')})` : c.help })), ...custom.commands.map((c) => ({ name: c.name, args: c.args ?? '[args]', help: c.description }))];
      const width = Math.max(...listed.map((c) => `/${c.name}${c.args ? ` ${c.args}` : ''}`.length));
      const columns = context.columns?.() ?? 80;
      // Each help text wraps at a word under its own column (a hanging indent), never mid-word.
      const hanging = (head: string, text: string): string[] => {
        const rows = wrapLine(text, Math.max(20, columns - head.length));
        return rows.map((row, i) => `${i === 0 ? head : ' '.repeat(head.length)}${style.dim(row)}`);
      };
      const line = (c: (typeof listed)[number]) => hanging(`  ${`/${c.name}${c.args ? ` ${c.args}` : ''}`.padEnd(width)}  `, c.help);
      context.print(
        style.bold('Commands'),
        ...listed.slice(0, SLASH_COMMANDS.length).flatMap(line),
        ...(custom.commands.length > 0 ? [style.bold('Custom commands') + style.dim(' (.reika/commands/, ~/.config/reika/commands/)'), ...listed.slice(SLASH_COMMANDS.length).flatMap(line)] : []),
        ...custom.problems.map((problem) => style.yellow(`  ! ${problem}`)),
        style.bold('Keys'),
        ...[
          'Enter send · Alt+Enter or a trailing \\ new line · ↑/↓ history (earlier runs too) · Ctrl+R searches it · Ctrl+A/E line start/end',
          'Ctrl+W/U delete word/line · Tab completes @path and /commands · Shift+Tab cycles mode',
          'Esc or Ctrl+C interrupts a turn · Ctrl+C twice or Ctrl+D exits · Ctrl+Z suspends · Ctrl+L clears',
          'Ctrl+O shows/folds reasoning · Ctrl+V pastes an image · @path attaches a file to the message (@"my notes/a.md" for spaces)',
          'A paste over 10 lines or 1,000 characters shows as [pasted N lines #1] and is sent in full: Tab just after it (or pasting it again) expands it, Backspace deletes it',
        ].flatMap((keys) => hanging('  ', keys)),
        style.dim('Documentation: the README and docs/ of the reika package (reika --help lists the commands)'),
      );
    },
  },
  {
    name: 'cd',
    args: 'PATH',
    help: 'work in another folder: index it and start over there (/cd . re-indexes this one)',
    idleOnly: true,
    async run(context, arg) {
      if (!arg) return context.error('usage: /cd PATH (/cd . re-indexes the current folder)');
      context.print(context.style.dim(`indexing ${arg} …`));
      context.forgetApprovals();
      context.print(...(await context.session.cd(arg)).split('\n'), context.style.dim('(a new index, repo map and system prompt: the prefix cache starts over)'));
    },
  },
  {
    name: 'approvals',
    args: '[safe|off]',
    help: 'show or set the approvals mode (bypass only through REIKA_AUTO_APPROVE)',
    run(context, arg) {
      const current = context.session.facts().approvals;
      if (!arg) return context.print(`approvals: ${current} ${context.style.dim('(safe asks for dangerous actions, off asks for every action)')}`);
      const mode = arg.toLowerCase();
      if (mode === 'bypass' || mode === 'yolo') return context.error('bypass is only available through the environment: REIKA_AUTO_APPROVE=bypass');
      if (mode !== 'safe' && mode !== 'off') return context.error(`unknown approvals mode "${arg}": use safe or off`);
      context.session.setApprovals(mode);
      context.print(`approvals: ${mode}`);
    },
  },
  {
    name: 'model',
    args: '[name|profile]',
    help: 'show or switch the model or profile (the prefix cache starts over)',
    idleOnly: true,
    async run(context, arg) {
      const facts = context.session.facts();
      if (!arg) {
        const profiles = facts.profiles.map((p) => (p === facts.profile ? context.style.bold(`${p} (active)`) : p)).join(', ');
        const listed = await (context.session.serverModels?.() ?? Promise.resolve([])).then(
          (models) => (models.length > 0 ? `the server's models: ${models.map((m) => (m === facts.model ? context.style.bold(`${m} (active)`) : m)).join(', ')}` : 'the server lists no models'),
          (error: unknown) => `the server's models: unknown (${error instanceof Error ? error.message : String(error)})`,
        );
        return context.print(`model: ${facts.model || '(not chosen yet)'} · profile: ${facts.profile}`, `profiles: ${profiles}`, listed, context.style.dim('/model NAME switches to a profile or to one of the server\'s models'));
      }
      context.print(await context.session.switchModel(arg));
    },
  },
  {
    name: 'mode',
    args: '[agent|plan]',
    help: 'show or set the mode: agent edits and runs, plan only reads (Shift+Tab cycles)',
    idleOnly: true,
    async run(context, arg) {
      if (!arg) return context.print(`mode: ${context.session.facts().mode}`);
      const mode = MODES.find((m) => m === arg.toLowerCase());
      if (!mode) return context.error(`unknown mode "${arg}": use ${MODES.join(' or ')}`);
      if (mode === context.session.facts().mode) return context.print(`mode: ${mode}`);
      await context.session.setMode(mode);
      context.print(`mode: ${mode} ${context.style.dim('(new system prompt and tools: the prefix cache starts over)')}`);
    },
  },
  {
    name: 'compact',
    help: 'fold old rounds of the context into a recap now (one compaction event)',
    idleOnly: true,
    async run(context) {
      context.print(await context.session.compact());
    },
  },
  {
    name: 'tokens',
    help: 'context and prefix-cache figures',
    async run(context) {
      const f = context.session.facts();
      // The dialect table loads only here: the terminal's start does not need it.
      const { dialectNamed } = await import('../../actors/model-io/dialects/table.js');
      const hit = cacheHitRate(f);
      const window = f.contextWindow ? `${formatTokens(f.contextWindow)} window, ${Math.round((f.contextTokens / f.contextWindow) * 100)}% used` : 'window unknown';
      context.print(
        `context: ${formatTokens(f.contextTokens)} tokens (${window})`,
        `requests: ${f.requests} · prompt ${formatTokens(f.promptTokens)} · cached ${formatTokens(f.cachedTokens)} · generated ${formatTokens(f.completionTokens)}`,
        `prefix-cache hit rate: ${hit === undefined ? 'no usage reported yet' : `${(hit * 100).toFixed(1)}%`}` +
          (f.lastUsage ? context.style.dim(` (last request ${f.lastUsage.cachedTokens}/${f.lastUsage.promptTokens})`) : ''),
        ...cacheLines(f),
        ...imageLines(f.imageTokens ?? 0, context.pendingImages()),
        `tool calls: ${dialectLine(f.dialect, (name) => dialectNamed(name)?.label)}`,
      );
    },
  },
  {
    name: 'doctor',
    help: 'what reika knows of the engine, model, window, slots, template and cache, and how to fix each problem',
    async run(context) {
      if (!context.session.doctor) return context.error('/doctor is not available in this session');
      context.print(...(await context.session.doctor()));
    },
  },
  {
    name: 'undo',
    args: '[N]',
    help: 'undo the last N edits, writes and commands: their files as they were before (default 1)',
    idleOnly: true,
    async run(context, arg) {
      const steps = arg === '' ? 1 : Number(arg);
      if (!Number.isInteger(steps) || steps < 1) return context.error(`usage: /undo [N] (N a number of steps from 1, got "${arg}")`);
      const { CheckpointStore } = await import('../../actors/tool-executor/safety/checkpoint-store.js');
      const { checkpointSession } = await import('../../actors/tool-executor/safety/session-id.js');
      const { describeRestore } = await import('../checkpoints.js');
      const restored = await CheckpointStore.for(context.session.facts().root).undo(checkpointSession(), steps, { passOver: true });
      context.print(...describeRestore(restored), context.style.dim('(files only: the conversation still holds those steps)'));
    },
  },
  {
    name: 'checkpoints',
    help: 'list the steps /undo can take back',
    async run(context) {
      const { CheckpointStore } = await import('../../actors/tool-executor/safety/checkpoint-store.js');
      const { checkpointSession } = await import('../../actors/tool-executor/safety/session-id.js');
      const { describeCheckpoints } = await import('../checkpoints.js');
      const { steps, unchanged } = await CheckpointStore.for(context.session.facts().root).listChanges(checkpointSession());
      context.print(...describeCheckpoints(steps, '/undo', unchanged));
    },
  },
  lastCommand,
  initCommand,
  permissionsCommand,
  {
    name: 'config',
    help: 'the settings in effect and where each came from: a flag, the environment, a .env or settings file, the default',
    async run(context) {
      if (!context.session.configLines) return context.error('/config is not available in this session (reika config shows the settings)');
      const [first, ...rest] = await context.session.configLines();
      context.print(first!, ...rest.map((line) => (/^\S/.test(line) ? context.style.bold(line) : line)));
    },
  },
  {
    name: 'mcp',
    args: '[reload]',
    help: 'MCP servers, their state and tools; reload reads the config again and adds tools that came late',
    async run(context, arg) {
      const sub = arg.toLowerCase();
      if (sub !== '' && sub !== 'reload') return context.error(`usage: /mcp [reload] (got "${arg}")`);
      if (sub === 'reload') {
        if (context.busy()) return context.error('/mcp reload waits until the turn ends (Esc interrupts it)');
        if (!context.session.reloadMcp) return context.error('MCP servers are not available in this session');
        return context.print(...(await context.session.reloadMcp()));
      }
      if (!context.session.mcpStatus) return context.error('MCP servers are not available in this session');
      context.print(...(await context.session.mcpStatus()));
    },
  },
  {
    name: 'new',
    aliases: ['clear'],
    help: 'start a fresh conversation (same index and repo map); the current one stays resumable',
    idleOnly: true,
    async run(context) {
      const before = context.session.transcript?.();
      await context.session.reset();
      context.print(before ? `new conversation ${context.style.dim(`(the last one stays resumable: /resume ${before.id} or reika --resume ${before.id})`)}` : 'new conversation');
    },
  },
  {
    name: 'resume',
    args: '[N|ID]',
    help: "list this folder's stored sessions, or go on with one (the current one stays resumable)",
    idleOnly: true,
    async run(context, arg) {
      const { session } = context;
      if (!session.storedSessions || !session.resume) return context.error('sessions are not stored in this session');
      const stored = session.storedSessions();
      if (!arg) {
        if (stored.ids.length === 0) return context.print('no stored sessions of this folder yet (a session is stored from its first message on)');
        return context.print(...stored.lines, context.style.dim('/resume N (or an id) goes on with one'));
      }
      const n = /^\d+$/.test(arg) && arg.length < 4 ? Number(arg) : undefined;
      if (n !== undefined && (n < 1 || n > stored.ids.length)) return context.error(`/resume ${arg}: there ${stored.ids.length === 1 ? 'is 1 stored session' : `are ${stored.ids.length} stored sessions`} (/resume lists them)`);
      const resumed = await session.resume(n !== undefined ? stored.ids[n - 1]! : arg);
      context.print(...resumed.lines);
      context.replay?.(resumed.recent);
    },
  },
  {
    name: 'save',
    args: '[FILE]',
    help: 'write this conversation as Markdown (default reika-session-ID.md here)',
    async run(context, arg) {
      const transcript = context.session.transcript?.();
      if (!transcript) return context.error('nothing to save yet: the conversation starts with your first message');
      const [{ writeFileSync }, { resolve }, { readTranscript }, { transcriptMarkdown }] = await Promise.all([import('node:fs'), import('node:path'), import('../../actors/transcript/read-transcript.js'), import('../transcript-markdown.js')]);
      const file = resolve(context.session.facts().root, arg || `reika-session-${transcript.id}.md`);
      const markdown = transcriptMarkdown(readTranscript(transcript.path, transcript.id));
      try {
        writeFileSync(file, markdown, { flag: 'wx' });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return context.error(code === 'EEXIST' ? `/save: ${file} exists; give another name (/save FILE)` : `/save: cannot write ${file} (${code ?? String(error)})`);
      }
      context.print(`saved the conversation to ${file}`);
    },
  },
  {
    name: 'exit',
    aliases: ['quit'],
    help: 'leave reika',
    run(context) {
      context.exit();
    },
  },
];

/** True when the input is a slash command rather than a message (`/path/to/x` is a message). */
export function isSlashCommand(input: string): boolean {
  return /^\/([a-z0-9][a-z0-9_-]*)?(\s|$)/i.test(input.trim());
}

/** Runs `/name arg`; unknown names get the closest command as a suggestion. */
export async function runSlashCommand(input: string, context: SlashContext): Promise<void> {
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(input.trim());
  const name = (match?.[1] ?? '').toLowerCase();
  const arg = (match?.[2] ?? '').trim();
  const command = findCommand(name);
  if (!command) {
    let custom: CustomCommands;
    try {
      custom = customCommands(context);
    } catch (error) {
      return context.error(`/${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const own = custom.commands.find((c) => c.name === name);
    if (own) return runCustom(own, arg, context);
    const broken = custom.problems.find((problem) => new RegExp(`[/\\\\]${escapeRegExp(name)}\\.md: `, 'i').test(problem));
    if (broken) return context.error(broken);
    const guess = closest(name, [...SLASH_COMMANDS.map((c) => c.name), ...custom.commands.map((c) => c.name)]);
    return context.error(`unknown command /${name}${guess ? ` — did you mean /${guess}?` : ''} (/help lists them)`);
  }
  if (command.idleOnly && context.busy()) return context.error(`/${command.name} waits until the turn ends (Esc interrupts it)`);
  try {
    await command.run(context, arg);
  } catch (error) {
    context.error(`/${command.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The built-in command called `name`, by its name or one of its aliases. */
function findCommand(name: string): SlashCommand | undefined {
  return SLASH_COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
}

/** Command names starting with `prefix` (for Tab completion), the built-ins first (aliases too), then `custom`. */
export function completeSlash(prefix: string, custom: readonly Pick<CustomCommand, 'name'>[] = []): string[] {
  const names = [...SLASH_COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]), ...custom.map((c) => c.name).filter((name) => !BUILT_IN.has(name))];
  return names.filter((name) => name.startsWith(prefix.toLowerCase()));
}

/**
 * The command palette shown while the prompt holds only `/` and part of a name: each matching
 * command with its one-line help, at most `limit` of them (then how many more).
 */
export function slashPalette(prefix: string, custom: readonly Pick<CustomCommand, 'name' | 'description'>[] = [], limit = 8): string[] {
  const wanted = prefix.toLowerCase();
  const entries = [
    ...SLASH_COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])].filter((name) => name.startsWith(wanted)).slice(0, 1).map((name) => ({ name, help: name === c.name ? c.help : `${c.help} (/${c.name})` }))),
    ...custom.filter((c) => !BUILT_IN.has(c.name) && c.name.startsWith(wanted)).map((c) => ({ name: c.name, help: c.description })),
  ];
  if (entries.length === 0) return [`no command starts with /${prefix} (/help lists them)`];
  const width = Math.max(...entries.slice(0, limit).map((e) => e.name.length)) + 1;
  const lines = entries.slice(0, limit).map((e) => `/${e.name.padEnd(width)} ${e.help}`);
  if (entries.length > limit) lines.push(`… ${entries.length - limit} more (Tab completes, /help lists all)`);
  return lines;
}

const BUILT_IN = new Set(SLASH_COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]));

/**
 * The custom commands (`custom-commands.ts`) as the session reads them now; one that has the
 * name of a built-in command is not used, and says so.
 */
function customCommands(context: SlashContext): CustomCommands {
  let session: SlashContext['session'] | undefined;
  try {
    session = context.session;
  } catch {
    return { commands: [], problems: [] };
  }
  const loaded = session.customCommands?.() ?? { commands: [], problems: [] };
  const shadowed = loaded.commands.filter((c) => BUILT_IN.has(c.name));
  return {
    commands: loaded.commands.filter((c) => !BUILT_IN.has(c.name)),
    problems: [...loaded.problems, ...shadowed.map((c) => `${c.file}: /${c.name} is a built-in command, which wins; rename the file`)],
  };
}

/** `/NAME args`: the command's prompt, `$ARGUMENTS` filled in, sent as a message. */
async function runCustom(command: CustomCommand, arg: string, context: SlashContext): Promise<void> {
  if (!context.send) return context.error(`/${command.name} needs the interactive terminal`);
  await context.send(expandCommand(command, arg), { shown: `/${command.name}${arg ? ` ${arg}` : ''}` });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `/tokens` lines for the real cache figures: the last request, and the requests that re-prefilled more than they appended. */
function cacheLines(f: ReturnType<SlashContext['session']['facts']>): string[] {
  const lines: string[] = [];
  const last = f.lastRequest;
  if (last) {
    const appended = last.appendedTokens !== undefined ? `, ${last.appendedTokens} appended since the request before` : '';
    lines.push(`last request: ${last.promptTokens} prompt tokens, ${last.cachedTokens} from the engine's cache, ${last.prefilledTokens} prefilled${appended}`);
  }
  if (f.prefilledTokens !== undefined && f.requests > 0) lines.push(`prefilled over the session: ${formatTokens(f.prefilledTokens)} tokens`);
  const compaction = f.compaction;
  if (compaction && compaction.events > 0) {
    const measured = compaction.measured > 0 ? `, ${formatTokens(compaction.reprefilledTokens)} of them prefilled again by the engine${compaction.measured < compaction.events ? ` (at the ${compaction.measured} events it reported)` : ''}` : ', what the engine prefilled again is not reported';
    lines.push(`compaction: ${compaction.events} event${compaction.events === 1 ? '' : 's'}, ${formatTokens(compaction.keptTokens)} tokens kept verbatim${measured}`);
    if (f.cacheReuseAdvice) lines.push(`  tip: ${f.cacheReuseAdvice}`);
  }
  const reprefills = f.reprefills ?? [];
  if (reprefills.length > 0) {
    lines.push(`re-prefilled more than appended: ${reprefills.length} request${reprefills.length === 1 ? '' : 's'}`);
    for (const entry of reprefills.slice(-3)) lines.push(`  request ${entry.request}: ${entry.prefilledTokens} prefilled for ${entry.appendedTokens ?? 0} appended — ${entry.reprefill?.detail ?? ''}`);
  }
  return lines;
}

/** How the model writes its calls, for `/tokens`: native, or which text dialect reika reads. */
function dialectLine(dialect: string | undefined, labelOf: (name: string) => string | undefined): string {
  if (dialect === undefined) return 'none made yet';
  if (dialect === 'native') return 'native (the server parses them)';
  const label = labelOf(dialect);
  return `written as text, read by reika as ${label ? `${label} (${dialect})` : dialect}`;
}

/** `/tokens` lines for images: each counts a fixed IMAGE_TOKENS, whatever its size. */
function imageLines(liveTokens: number, pending: number): string[] {
  const lines: string[] = [];
  const each = `${formatTokens(IMAGE_TOKENS)} tokens each`;
  if (liveTokens > 0) lines.push(`images in this turn: ${liveTokens / IMAGE_TOKENS} (${each}, included above)`);
  if (pending > 0) lines.push(`images pasted for your next message: ${pending} (+${formatTokens(pending * IMAGE_TOKENS)} tokens, ${each})`);
  return lines;
}
