import type { TurnResult } from '../../actors/agent/events.js';
import type { Session } from '../../actors/session/session.js';
import type { Config } from '../../actors/config/load-config.js';
import type { PermissionBook } from '../../actors/session/permission-book.js';
import { describeCompaction } from '../../actors/context/describe-compaction.js';
import type { Image } from '../../actors/images/image.js';
import type { Bootstrap } from '../../actors/prompt/bootstrap.js';
import type { McpHub } from '../../actors/mcp/hub.js';
import { uiEventsOf } from './map-agent-event.js';
import type { SessionFacts, SessionMode, SessionPort, TurnOutcome, UiEvent } from './session-port.js';
import { formatTokens } from './status-line.js';
import { groupThousands } from './spinner.js';
import { listSessions } from '../../actors/transcript/session-catalog.js';
import { sessionLine } from '../describe-sessions.js';
import { locateSession, openSession, resumeLine } from '../open-session.js';
import { loadCustomCommands, type CustomCommands } from '../slash/custom-commands.js';
import type { RecentTurn } from '../../actors/transcript/recent-turns.js';

/**
 * The agent's {@link Session} as the terminal UI sees it: agent events become UI events
 * ({@link uiEventsOf}), the session's figures become status-line facts (the session's usage
 * ledger sums each reply as it is reported), and `/cd`, `/model`, `/compact` results become one
 * line each.
 */
export class SessionAdapter implements SessionPort {
  constructor(
    private readonly session: Session,
    private readonly config: Config,
    private readonly closeRuntime: () => Promise<void>,
    private readonly mcp?: () => Promise<McpHub>,
    /** Told when the transcript stops recording (a write error). */
    private readonly notify?: (message: string) => void,
  ) {
    this.startRoot = session.info().root;
  }

  /** The folder the session started in, whose configuration {@link config} is. */
  private readonly startRoot: string;

  transcript(): { id: string; path: string } | undefined {
    const id = this.session.transcriptId;
    const path = this.session.transcriptPath;
    return id && path ? { id, path } : undefined;
  }

  resumableId(): string | undefined {
    return this.session.resumableId;
  }

  storedSessions(): { lines: string[]; ids: string[] } {
    const sessions = listSessions(this.session.info().root);
    const current = this.session.transcriptId;
    return { ids: sessions.map((s) => s.id), lines: sessions.map((s, i) => `${String(i + 1).padStart(2)}. ${sessionLine(s, 96)}${s.id === current ? ' (this one)' : ''}`) };
  }

  async resume(id: string): Promise<{ lines: string[]; recent: RecentTurn[] }> {
    const root = this.session.info().root;
    const located = locateSession({ resume: id }, root);
    if (!located) return { lines: [], recent: [] };
    const stored = located.stored;
    if (stored.id === this.session.transcriptId) return { lines: [`session ${stored.id} is the one going on`], recent: [] };
    if (located.root !== root) throw new Error(`session ${stored.id} ran in ${located.root}: resume it there (reika --resume ${stored.id})`);
    const opened = openSession(located, this.config, { onProblem: (message) => this.notify?.(message) });
    const { resume, writer, copied } = opened;
    if (!resume || !writer) return { lines: [], recent: [] };
    await this.session.resumeFrom(resume, (recorder) => recorder.attach(writer, copied));
    return { lines: [...opened.notes, resumeLine(writer.id, resume)], recent: resume.recent };
  }

  facts(): SessionFacts {
    const info = this.session.info();
    return {
      root: info.root,
      model: info.model ?? '',
      profile: info.profile,
      profiles: this.config.profiles.map((p) => p.name),
      mode: info.mode === 'plan' ? 'plan' : 'agent',
      approvals: info.approvals,
      contextWindow: info.window,
      contextTokens: info.estimateTokens,
      imageTokens: info.imageTokens,
      promptTokens: info.usage.promptTokens,
      cachedTokens: info.usage.cachedTokens,
      completionTokens: info.usage.completionTokens,
      requests: info.requests,
      run: { requests: info.run.requests, promptTokens: info.run.usage.promptTokens, cachedTokens: info.run.usage.cachedTokens, completionTokens: info.run.usage.completionTokens },
      lastUsage: info.lastUsage,
      ...(info.dialect ? { dialect: info.dialect } : {}),
      ...(info.lastRequest ? { lastRequest: info.lastRequest } : {}),
      prefilledTokens: info.cache.prefilledTokens,
      reprefills: info.cache.reprefills,
      compaction: info.cache.compaction,
      ...(info.cacheReuseAdvice ? { cacheReuseAdvice: info.cacheReuseAdvice } : {}),
    };
  }

  imageProblem(): string | undefined {
    return this.session.imageProblem();
  }

  filePaths(): readonly string[] | undefined {
    return this.session.bootstrap?.index.paths;
  }

  ready(): Promise<void> {
    return this.session.ready;
  }

  async runTurn(input: string, onEvent: (event: UiEvent) => void, images: readonly Image[] = [], options: { readOnly?: boolean } = {}): Promise<TurnOutcome> {
    if (!this.session.bootstrap) onEvent({ type: 'waiting', what: 'the index' });
    const unsubscribe = this.session.subscribe((event) => {
      for (const ui of uiEventsOf(event)) onEvent(ui);
    });
    let result: TurnResult;
    try {
      result = await this.session.run(input, { ...(images.length > 0 ? { images } : {}), ...(options.readOnly ? { readOnly: true } : {}) });
    } catch (error) {
      return { status: 'error', error: error instanceof Error ? error.message : String(error) };
    } finally {
      unsubscribe();
    }
    if (result.status === 'answered') return { status: 'done', answer: result.answer };
    if (result.status === 'aborted') return { status: 'aborted' };
    return { status: 'error', error: result.error?.message ?? `the turn ended: ${result.status}` };
  }

  abort(): void {
    this.session.abort('interrupted by the user');
  }

  customCommands(): CustomCommands {
    return loadCustomCommands(this.session.info().root, this.config.userFolder);
  }

  async compact(): Promise<string> {
    const event = this.session.compact();
    if (!event) return 'nothing to compact: no round is old enough to fold';
    return `compacted: ${describeCompaction(event)}, ${formatTokens(event.beforeTokens)} → ${formatTokens(event.afterTokens)} tokens`;
  }

  reset(): void {
    this.session.newConversation();
  }

  async cd(path: string): Promise<string> {
    const { boot, added, removed } = await this.session.cd(path);
    const tools = describeToolChange(added, removed);
    const problems = boot.skills.problems.map((problem) => `\nskill ${problem}`).join('');
    return `${describeBootstrap(bootstrapFacts(boot))}${tools ? `; ${tools}` : ''}${problems}`;
  }

  serverModels(): Promise<string[]> {
    return this.session.serverModels();
  }

  async switchModel(name: string): Promise<string> {
    const connection = await this.session.switchProfile(name);
    const window = connection.window ? `, ${formatTokens(connection.window)} window` : '';
    return `model: ${connection.endpoint.model} (profile ${connection.profile}${window}) — the server's prefix cache starts over with the next request`;
  }

  setMode(mode: SessionMode): Promise<void> {
    return this.session.setMode(mode);
  }

  setApprovals(mode: 'safe' | 'off'): void {
    this.session.setApprovals(mode);
  }

  async mcpStatus(): Promise<string[]> {
    if (!this.mcp) return ['MCP servers are not available in this session'];
    const [hub, { describeServers }] = await Promise.all([this.mcp(), import('../../actors/mcp/describe-status.js')]);
    return describeServers(hub.status(), hub.configProblems(), new Set(this.session.toolNames()));
  }

  async doctor(): Promise<string[]> {
    const { sessionDoctor } = await import('../doctor/session-doctor.js');
    return sessionDoctor(this.session, this.config, this.mcp);
  }

  async reloadMcp(): Promise<string[]> {
    const { added, removed } = await this.session.reloadTools();
    const lines = await this.mcpStatus();
    return [...lines, describeToolChange(added, removed) ?? 'the tools are unchanged'];
  }

  permissions(): PermissionBook | undefined {
    return this.session.permissions;
  }

  async configLines(): Promise<string[]> {
    const { describeConfig } = await import('../commands/config-command.js');
    const info = this.session.info();
    const now = `in this session now: profile ${info.profile} · model ${info.model || '(not chosen yet)'} · approvals ${info.approvals} · mode ${info.mode} (/model, /approvals, /mode change them)`;
    const moved = info.root !== this.startRoot ? [`(the session moved to ${info.root} with /cd: its commands and edits follow that folder's settings; reika config --cwd ${info.root} shows them)`] : [];
    return [now, ...describeConfig(this.config), ...moved];
  }

  async close(): Promise<void> {
    this.session.close('reika is closing');
    await this.session.end('exit');
    await this.closeRuntime();
  }
}

/**
 * `13 MCP tools joined (everything): …` when `/cd` or `/mcp reload` changed the tools array, or
 * undefined when it did not.
 */
export function describeToolChange(added: readonly string[], removed: readonly string[]): string | undefined {
  if (added.length === 0 && removed.length === 0) return undefined;
  const servers = (names: readonly string[]) => [...new Set(names.map((name) => /^mcp__(.+?)__/.exec(name)?.[1] ?? name))].join(', ');
  const parts = [
    added.length > 0 ? `${added.length} tool${added.length === 1 ? '' : 's'} joined (${servers(added)})` : '',
    removed.length > 0 ? `${removed.length} left (${servers(removed)})` : '',
  ].filter(Boolean);
  return `${parts.join(', ')}: the tools array changed, so the server's prefix cache starts over with the next request`;
}

/** What a bootstrap produced, as the `bootstrap` event and `/cd` report it. */
export interface BootstrapFacts {
  root: string;
  files: number;
  repoMapFiles: number;
  capped: boolean;
  ms: number;
}

export function bootstrapFacts(boot: Bootstrap): BootstrapFacts {
  return { root: boot.root, files: boot.index.paths.length, repoMapFiles: boot.repoMap.files.length - boot.repoMap.omitted, capped: boot.index.capped.length > 0, ms: boot.ms };
}

/** `now in /path: 1,234 files indexed, repo map of 56 files (0.4s)`. */
export function describeBootstrap(facts: BootstrapFacts): string {
  const capped = facts.capped ? ' (capped: the tree is larger than the index holds)' : '';
  return `now in ${facts.root}: ${groupThousands(facts.files)} file${facts.files === 1 ? '' : 's'} indexed${capped}, repo map of ${facts.repoMapFiles} file${facts.repoMapFiles === 1 ? '' : 's'} (${(facts.ms / 1000).toFixed(1)}s)`;
}
