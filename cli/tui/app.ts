import type { Image } from '../../actors/images/image.js';
import type { TodoItem } from '../../actors/tool-executor/protocol.js';
import type { ApprovalReply, ApprovalRequest } from '../../actors/approver/protocol.js';
import { completeSlash, isSlashCommand, runSlashCommand, slashPalette } from '../slash/commands.js';
import type { SlashContext } from '../slash/slash-context.js';
import type { CustomCommand } from '../slash/custom-commands.js';
import type { SummaryFigures } from '../session-summary.js';
import type { RecentTurn } from '../../actors/transcript/recent-turns.js';
import { ApprovalQueue } from './approval-queue.js';
import { attachFiles } from './attachments.js';
import { mentionBeforeCursor } from '../../actors/prompt/mentions.js';
import { completePath } from './completion.js';
import { KeyDecoder, type KeyEvent } from './keys.js';
import { editKey } from './editor-keys.js';
import { LineEditor } from './line-editor.js';
import { hyperlinksSupported } from './markdown/hyperlinks.js';
import { promptView } from './prompt-view.js';
import { Screen, type LiveArea, type TerminalOutput } from './screen.js';
import type { SessionFacts, SessionMode, SessionPort, TurnOutcome, UiEvent } from './session-port.js';
import { SPINNER_INTERVAL_MS } from './spinner.js';
import { statusLine } from './status-line.js';
import { StreamText } from './stream-text.js';
import { stripAnsi, type Style } from './style.js';
import { truncate } from './text-width.js';
import type { ToolView } from './tool-line.js';
import { todoLines } from './todo-view.js';
import { TurnView } from './turn-view.js';

/** A message waiting to be sent: typed, or made by a slash command (`shown` is what the transcript shows). */
interface QueuedMessage {
  text: string;
  images: Image[];
  shown?: string;
  readOnly?: boolean;
  /** Told how the turn ended. */
  done?(outcome: TurnOutcome): void;
}

/** A second Ctrl-C on an empty prompt within this window exits. */
export const EXIT_WINDOW_MS = 2_000;
const MODES: SessionMode[] = ['agent', 'plan'];
/** How long leaving waits for the runtime to close before handing the terminal back anyway. */
const CLOSE_WAIT_MS = 3_000;
/** Finished tool calls `/last N` can reach back to. */
const KEEP_FINISHED = 50;
/** Lines of one recorded answer shown again on resuming. */
const REPLAY_LINES = 40;

export interface AppOptions {
  output: TerminalOutput;
  style: Style;
  /** The session arrives when the runtime has started; the prompt works before that. */
  session: Promise<SessionPort>;
  /** Shown until the session exists (from the configuration alone). */
  initialFacts: SessionFacts;
  onExit(code: number): void;
  /** `/cd` forgets the approver's `always` answers (another project starts over). */
  onForgetApprovals?(): void;
  /** Ctrl+Z: stop the process until the shell continues it (the live area is cleared first). */
  onSuspend?(resumed: () => void): void;
  /** Ctrl+V: the clipboard's image (default: `cli/clipboard.ts`, loaded on first use). */
  readClipboardImage?(): Promise<Image>;
  now?: () => number;
  /** The prompt history of earlier runs in this project, and where each sent line goes. */
  history?: { entries(): string[]; add(text: string): void };
  /** "Always here" / "Always, every project": writes the rules to that settings file; the line to show (throws a one-line error). */
  rememberRules?(scope: 'local' | 'user', rules: readonly string[]): string;
}

/**
 * The interactive session's terminal: keys → line editor and commands, session events → the
 * transcript and the live area (streaming line, running tools, spinner, approval menu, prompt,
 * status line). Typing is never blocked: the prompt is drawn before the runtime exists, and every
 * key is handled and echoed synchronously.
 */
export class InteractiveApp {
  readonly editor = new LineEditor();
  readonly screen: Screen;
  private readonly decoder = new KeyDecoder((event) => this.key(event));
  private readonly stream: StreamText;
  private session: SessionPort | undefined;
  private sessionError: string | undefined;
  private turn: TurnView | undefined;
  private readonly queue: QueuedMessage[] = [];
  /** Finished tool calls, newest last, for `/last`. */
  private readonly finished: ToolView[] = [];
  /** Pasted images waiting for the next message. */
  private images: Image[] = [];
  private readonly approvals: ApprovalQueue;
  private hint: string[] = [];
  private lastCtrlC = -Infinity;
  private reasoningCollapsed = false;
  private spinner: NodeJS.Timeout | undefined;
  private exiting = false;
  private readonly now: () => number;
  private readonly startedAt: number;
  /** The model's task list, drawn above the prompt until every item is done. */
  private todo: TodoItem[] = [];
  /** Messages sent this session, for the summary at exit. */
  private turns = 0;
  /** The last stored session this run worked in (`/new` ends one, `/resume` takes another): the exit line names it. */
  private resumable: string | undefined;

  constructor(private readonly options: AppOptions) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.screen = new Screen(options.output, () => this.liveArea());
    this.stream = new StreamText((...lines) => this.screen.commit(...lines), options.style, () => this.screen.columns, () => this.reasoningCollapsed, this.now, hyperlinksSupported(), (fallback) => this.screen.reserve(fallback));
    this.approvals = new ApprovalQueue(this.screen, this.stream, options.style, options.rememberRules);
    if (options.history) this.editor.load(options.history.entries());
    options.session.then(
      (session) => {
        this.session = session;
        this.screen.schedule();
      },
      (error: unknown) => {
        this.sessionError = error instanceof Error ? error.message : String(error);
        this.screen.note(`reika: ${this.sessionError}`, this.options.style.red);
      },
    );
  }

  /** Raw input from the terminal. */
  input(chunk: string | Buffer): void {
    this.decoder.feed(chunk);
  }

  /** Draws the first frame. */
  start(banner: string[]): void {
    if (banner.length > 0) this.screen.commit(...banner);
    this.screen.render();
  }

  /** Prints lines into the transcript (from outside a turn's events: bootstrap, errors). */
  print(...lines: string[]): void {
    this.screen.commit(...lines);
  }

  /** Prints plain text word-wrapped to the width, each row painted. */
  note(text: string, paint?: (row: string) => string): void {
    this.screen.note(text, paint);
  }

  get facts(): SessionFacts {
    return this.session?.facts() ?? this.options.initialFacts;
  }

  get busy(): boolean {
    return this.turn !== undefined;
  }

  /** The approver's question to the person: shown now, answered by keys. */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalReply> {
    return this.approvals.ask(request, signal);
  }

  private key(event: KeyEvent): void {
    if (this.exiting) return;
    const approval = this.approvals.current;
    if (approval) {
      // Esc and Ctrl-C interrupt the turn here too (Esc while a reason is typed goes back to the
      // choices); the abort declines the open question.
      if (event.type === 'key' && (event.name === 'ctrl-c' || (event.name === 'escape' && !approval.typing))) this.abortTurn();
      else approval.key(event);
      this.screen.render();
      return;
    }
    if (event.type !== 'key' || event.name !== 'tab') this.hint = [];
    if (this.editor.search && this.searchKey(event)) return this.screen.render();
    if (event.type === 'paste') {
      const pasted = this.editor.paste(event.text);
      if (pasted && pasted !== 'expanded') this.hint = ['long paste collapsed, sent in full · Tab expands it · Backspace deletes it'];
      this.showPalette();
      return this.screen.render();
    }
    if (event.type === 'text') {
      this.editor.insert(event.text);
      this.showPalette();
      return this.screen.render();
    }
    if (editKey(this.editor, event.name)) {
      this.showPalette();
      return this.screen.render();
    }
    switch (event.name) {
      case 'enter':
        return this.enter();
      case 'tab':
        this.complete();
        break;
      case 'shift-tab':
        this.cycleMode();
        break;
      case 'escape':
        if (this.turn) this.abortTurn();
        break;
      case 'ctrl-c':
        return this.ctrlC();
      case 'ctrl-d':
        if (this.editor.empty) return void this.exit();
        this.editor.deleteForward();
        break;
      case 'ctrl-o':
        this.toggleReasoning();
        break;
      case 'ctrl-r':
        this.editor.searchOlder();
        this.hint = [searchHint(this.editor)];
        break;
      case 'ctrl-v':
        void this.pasteImage();
        break;
      case 'ctrl-z':
        if (!this.options.onSuspend) break;
        this.screen.hide();
        this.options.onSuspend(() => this.screen.show());
        return;
      case 'ctrl-l':
        // The banner goes back on the first row, so the live area is never redrawn from the
        // top-left corner: there, `ESC[J` clears the whole screen, and tmux keeps a copy of the
        // screen in its scrollback for every such clear (one prompt per keystroke).
        this.options.output.write('\x1b[H\x1b[2J');
        this.screen.resetPosition();
        this.screen.commit(this.options.style.dim(`reika · ${this.facts.root} · /help for commands`));
        break;
      default:
        break;
    }
    this.screen.render();
  }

  private enter(): void {
    const typed = this.editor.submit();
    if (typed === undefined) return this.screen.render();
    if (typed.trim() === '') return this.screen.render();
    // Long pastes went in as tokens: the message, the history and the session have their full text.
    const text = this.editor.expand(typed);
    this.options.history?.add(text);
    if (isSlashCommand(text)) {
      this.screen.commit(this.options.style.dim(`› ${typed.trim()}`));
      this.screen.render();
      // A command typed while the runtime starts waits for it (a failed start was already reported).
      void this.options.session.then(
        () => runSlashCommand(text, this.slashContext()).then(() => {
          this.noteResumable();
          this.screen.render();
        }),
        () => undefined,
      );
      return;
    }
    const images = this.images;
    this.images = [];
    const message: QueuedMessage = { text, images, ...(typed !== text ? { shown: typed } : {}) };
    if (this.turn) {
      this.queue.push(message);
      return this.screen.render();
    }
    void this.runTurn(message);
  }

  /**
   * A key while Ctrl+R searches the history: typing narrows, Ctrl+R goes older, Enter takes the
   * match into the prompt, Esc (Ctrl+G, Ctrl+C) puts the text back. Any other key takes the match
   * and then does what it does (false: handle it as usual).
   */
  private searchKey(event: KeyEvent): boolean {
    const editor = this.editor;
    if (event.type === 'text' || event.type === 'paste') editor.searchType(event.text);
    else if (event.name === 'backspace') editor.searchBackspace();
    else if (event.name === 'ctrl-r') editor.searchOlder();
    else if (event.name === 'escape' || event.name === 'ctrl-g' || event.name === 'ctrl-c') editor.searchEnd(false);
    else if (event.name === 'enter') editor.searchEnd(true);
    else {
      editor.searchEnd(true);
      return false;
    }
    this.hint = editor.search ? [searchHint(editor)] : [];
    return true;
  }

  private async pasteImage(): Promise<void> {
    const { style } = this.options;
    try {
      // The clipboard first: with no display or no image, that is what the user needs to hear.
      const read = this.options.readClipboardImage ?? (async () => (await import('../clipboard.js')).readClipboardImage());
      const image = await read();
      const problem = this.session?.imageProblem?.();
      if (problem) throw new Error(problem);
      this.images.push(image);
      this.screen.commit(style.dim(`image pasted (${image.mime.replace('image/', '')}, ${Math.max(1, Math.round(image.bytes.length / 1024))} KB): it goes with your next message`));
    } catch (error) {
      this.screen.note(`! paste: ${error instanceof Error ? error.message : String(error)}`, style.yellow);
    }
    this.screen.render();
  }

  private async runTurn(message: QueuedMessage): Promise<void> {
    const { text, images } = message;
    const { style } = this.options;
    this.turns++;
    const turn = new TurnView(this.screen, this.stream, style, this.now, !this.session, (view) => {
      this.finished.push(view);
      if (this.finished.length > KEEP_FINISHED) this.finished.shift();
    });
    this.turn = turn;
    this.screen.commit(...(message.shown ?? text).split('\n').map((line, i) => `${style.bold(i === 0 ? '› ' : '  ')}${line}`), '');
    this.startSpinner();
    this.screen.render();
    let outcome: TurnOutcome;
    try {
      const session = await this.options.session;
      if (turn.aborted) outcome = { status: 'aborted' };
      else {
        const attached = await attachFiles(text, session.facts().root);
        for (const problem of attached.problems) this.screen.note(`! ${problem}`, style.yellow);
        if (attached.attached.length > 0) this.screen.commit(style.dim(`attached ${attached.attached.join(', ')}`));
        turn.phase = 'thinking';
        const options = message.readOnly ? { readOnly: true } : undefined;
        const onEvent = (event: UiEvent) => {
          if (this.turn !== turn) return;
          if (event.type === 'todo') this.todo = event.items;
          turn.handle(event);
        };
        outcome = turn.aborted ? { status: 'aborted' } : await session.runTurn(attached.message, onEvent, images, options);
      }
    } catch (error) {
      outcome = { status: 'error', error: error instanceof Error ? error.message : String(error) };
    }
    turn.finish(outcome);
    this.turn = undefined;
    this.noteResumable();
    this.stopSpinner();
    this.screen.render();
    message.done?.(outcome);
    const next = this.queue.shift();
    if (next !== undefined && !this.exiting) void this.runTurn(next);
    else if (next !== undefined) next.done?.({ status: 'aborted' });
  }

  private abortTurn(): void {
    const turn = this.turn;
    if (!turn || turn.aborted) return;
    turn.aborted = true;
    turn.phase = 'interrupting';
    this.session?.abort();
    this.screen.render();
  }

  private ctrlC(): void {
    if (this.turn) return this.abortTurn();
    if (!this.editor.empty) {
      this.editor.clear();
      return this.screen.render();
    }
    const now = this.now();
    if (now - this.lastCtrlC <= EXIT_WINDOW_MS) return void this.exit();
    this.lastCtrlC = now;
    this.hint = ['press Ctrl+C again to exit'];
    this.screen.render();
  }

  private complete(): void {
    if (this.editor.expandPaste()) return;
    const { word, start } = this.editor.wordAtCursor();
    const atLineStart = this.editor.text.slice(0, start).trim() === '';
    if (word.startsWith('/') && atLineStart) {
      const names = completeSlash(word.slice(1), this.customCommandsNow());
      if (names.length === 1) this.editor.replaceBeforeCursor(start, `/${names[0]} `);
      else this.hint = names.length > 0 ? [names.map((n) => `/${n}`).join('  ')] : [];
      return;
    }
    // The mention may hold spaces (`@"my notes/ré`, `@my\ no`): it is found from its `@`, not the word.
    const mention = mentionBeforeCursor(this.editor.text, this.editor.cursor);
    if (!mention) return;
    const paths = this.session?.filePaths();
    if (!paths) {
      this.hint = ['the file index is still being built…'];
      return;
    }
    const completion = completePath(this.editor.text.slice(mention.start, this.editor.cursor), paths);
    if (completion.replacement) this.editor.replaceBeforeCursor(mention.start, completion.replacement);
    this.hint = completion.candidates.length > 0 ? completion.candidates.map((c) => `  ${c}`) : completion.replacement ? [] : ['no matching file'];
  }

  private cycleMode(): void {
    if (this.turn) {
      this.hint = ['the mode changes when the turn ends'];
      return;
    }
    const next = MODES[(MODES.indexOf(this.facts.mode) + 1) % MODES.length]!;
    if (!this.session) {
      this.options.initialFacts.mode = next;
      return;
    }
    Promise.resolve(this.session.setMode(next)).then(
      () => this.screen.schedule(),
      (error: unknown) => this.screen.note(`mode: ${error instanceof Error ? error.message : String(error)}`, this.options.style.red),
    );
  }

  private toggleReasoning(): void {
    this.reasoningCollapsed = !this.reasoningCollapsed;
    const { style } = this.options;
    if (!this.reasoningCollapsed && this.stream.active !== 'reasoning' && this.stream.lastReasoning.trim() !== '') {
      this.screen.commit(...this.stream.lastReasoning.trim().split('\n').map((line) => style.dim(line)), '');
    }
    this.hint = [`reasoning ${this.reasoningCollapsed ? 'collapsed' : 'shown'} (Ctrl+O toggles)`];
  }

  private slashContext(): SlashContext {
    const app = this;
    const { style } = this.options;
    return {
      get session(): SessionPort {
        if (!app.session) throw new Error(app.sessionError ?? 'the session is still starting; try again in a moment');
        return app.session;
      },
      style,
      // Plain lines are word-wrapped; lines that carry their own styling are printed as they are.
      print: (...lines) => {
        for (const line of lines) {
          if (stripAnsi(line) === line) this.screen.note(line);
          else this.screen.commit(line);
        }
      },
      error: (message) => this.screen.note(message, style.red),
      exit: () => void this.exit(),
      busy: () => this.turn !== undefined,
      forgetApprovals: () => this.options.onForgetApprovals?.(),
      pendingImages: () => this.images.length,
      finishedTool: (back) => this.finished.at(-back),
      columns: () => this.screen.columns,
      replay: (turns) => this.replay(turns),
      // A message of its own (a custom command, /init): queued behind a running turn like a typed one.
      send: (text, options) =>
        new Promise<TurnOutcome>((resolve) => {
          const message: QueuedMessage = { text, images: [], shown: options.shown, ...(options.readOnly ? { readOnly: true } : {}), done: resolve };
          if (this.turn) {
            this.queue.push(message);
            this.screen.render();
          } else void this.runTurn(message);
        }),
      ask: (request) => this.ask(request, new AbortController().signal),
    };
  }

  /** The custom commands as the folders hold them now (none before the session exists). */
  /** While the prompt is `/` and part of a command's name, the matching commands show below it. */
  /**
   * The custom commands the open palette lists: read from disk once when it opens, not at every
   * key typed into it (reading them is synchronous, on the thread that echoes keys).
   */
  private paletteCustom: CustomCommand[] | undefined;

  private showPalette(): void {
    const text = this.editor.text;
    if (!/^\/[a-z0-9_-]*$/i.test(text)) {
      this.paletteCustom = undefined;
      return;
    }
    this.paletteCustom ??= this.customCommandsNow();
    this.hint = slashPalette(text.slice(1), this.paletteCustom);
  }

  private customCommandsNow(): CustomCommand[] {
    try {
      return this.session?.customCommands?.().commands ?? [];
    } catch {
      return [];
    }
  }

  private startSpinner(): void {
    this.spinner ??= setInterval(() => this.screen.schedule(), SPINNER_INTERVAL_MS);
  }

  private stopSpinner(): void {
    if (this.spinner) clearInterval(this.spinner);
    this.spinner = undefined;
  }

  /**
   * A resumed session's last turns, shown as they were: the prompt, the answer, one line per tool
   * call, through the views a live turn uses. A long answer shows its last {@link REPLAY_LINES} lines.
   */
  replay(turns: readonly RecentTurn[]): void {
    const { style } = this.options;
    for (const recorded of turns) {
      this.screen.commit(...recorded.prompt.split('\n').map((line, i) => `${style.bold(i === 0 ? '› ' : '  ')}${line}`), '');
      const view = new TurnView(this.screen, this.stream, style, this.now, false);
      for (const step of recorded.steps) {
        if (step.type === 'text') {
          const lines = step.text.split('\n');
          if (lines.length > REPLAY_LINES) this.screen.commit(style.dim(`… ${lines.length - REPLAY_LINES} lines above (/save writes the whole session)`));
          view.handle({ type: 'text', text: lines.slice(-REPLAY_LINES).join('\n') });
          continue;
        }
        view.handle({ type: 'tool-start', id: step.id, name: step.name, args: step.args });
        view.handle({ type: 'tool-end', id: step.id, name: step.name, status: step.status ?? 'cancelled', summary: step.summary ?? '' });
      }
      const status = recorded.status;
      view.finish(status === 'interrupted' || status === 'aborted' ? { status: 'aborted' } : status === 'error' ? { status: 'error', ...(recorded.error ? { error: recorded.error } : {}) } : { status: 'done' });
    }
    this.screen.render();
  }

  /** What this run did (every conversation of it: `/new`, `/cd` and `/resume` do not start the count over), for the line printed on leaving. */
  summaryFigures(): SummaryFigures {
    const facts = this.facts;
    const run = facts.run ?? facts;
    return { turns: this.turns, requests: run.requests, promptTokens: run.promptTokens, cachedTokens: run.cachedTokens, completionTokens: run.completionTokens, durationMs: this.now() - this.startedAt };
  }

  /** The stored session to name on leaving (`reika --resume ID`), if this run left one. */
  resumableSession(): string | undefined {
    return this.resumable;
  }

  private noteResumable(): void {
    this.resumable = this.session?.resumableId?.() ?? this.resumable;
  }

  /** Leaves: aborts a running turn, clears the live area, closes the session. */
  async exit(code = 0): Promise<void> {
    if (this.exiting) return;
    this.exiting = true;
    if (this.turn) this.abortTurn();
    else this.noteResumable();
    this.stopSpinner();
    this.decoder.dispose();
    this.screen.dispose();
    this.approvals.declineAll();
    try {
      // Closing ends every actor; a stuck one must not keep the user from their shell.
      await Promise.race([this.session?.close(), new Promise<void>((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
    } finally {
      this.options.onExit(code);
    }
  }

  private liveArea(): LiveArea {
    const { style } = this.options;
    const columns = this.screen.columns;
    // A fresh array (the held lines of a long table can be too many to spread as arguments).
    const lines: string[] = this.stream.liveLines();
    if (this.turn) lines.push(...this.turn.liveLines(columns, this.approvals.current?.request));
    const approval = this.approvals.current;
    if (approval) {
      lines.push(...approval.menu(style, columns), statusLine(this.facts, columns, style));
      return { lines };
    }
    if (this.images.length > 0) lines.push(style.dim(`[${this.images.length} image${this.images.length === 1 ? '' : 's'} attached]`));
    // Drawn from the queue itself, so the notice goes when the message leaves it.
    if (this.queue.length > 0) lines.push(style.dim(truncate(`queued ${this.queue.length} message${this.queue.length === 1 ? '' : 's'}: sent when this turn ends`, columns - 1)));
    lines.push(...this.hint.map((line) => style.dim(truncate(line, columns - 1))));
    lines.push(...todoLines(this.todo, columns, style));
    const placeholder = this.turn ? undefined : 'type a message · /help for commands';
    const prompt = promptView(this.editor, style, Math.max(3, this.screen.rows - 8), placeholder, columns);
    const first = lines.length;
    lines.push(...prompt.lines, statusLine(this.facts, columns, style));
    return { lines, cursor: { line: first + prompt.cursor.line, column: prompt.cursor.column } };
  }
}

/** The hint line while Ctrl+R searches. */
function searchHint(editor: LineEditor): string {
  const search = editor.search;
  if (!search) return '';
  const state = search.query === '' ? 'type to search the history' : search.found ? 'Ctrl+R older · Enter takes it · Esc puts your text back' : 'no match';
  return `history search: "${search.query}" — ${state}`;
}
