import { onAbort } from '../../../runtime/abort.js';
import type { Image } from '../../../actors/images/image.js';
import type { ApprovalReply, ApprovalRequest } from '../../../actors/approver/protocol.js';
import type { CustomCommands } from '../../../cli/slash/custom-commands.js';
import type { SessionFacts, SessionMode, SessionPort, TurnOutcome, UiEvent } from '../../../cli/tui/session-port.js';

/** One scripted turn: gets the input and an emitter, and may ask for approval or wait for abort. */
export type ScriptedTurn = (input: string, tools: { emit(event: UiEvent): void; ask(request: ApprovalRequest): Promise<ApprovalReply>; aborted: Promise<void> }) => Promise<TurnOutcome>;

/** A SessionPort driven by scripted turns, recording what the UI asked of it. */
export class FakeSession implements SessionPort {
  readonly calls: string[] = [];
  readonly inputs: string[] = [];
  readonly images: (readonly Image[])[] = [];
  /** The options of each turn (`readOnly` for /init). */
  readonly turnOptions: ({ readOnly?: boolean } | undefined)[] = [];
  /** Custom commands, when a test gives them (else the session has none). */
  customCommands?: () => CustomCommands;
  /** What `imageProblem` answers (tests set it). */
  imageProblem?: () => string | undefined;
  paths: string[] | undefined = ['src/app.ts', 'src/alpha.ts', 'README.md', 'docs/guide.md'];
  askPerson?: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalReply>;
  private controller: AbortController | undefined;
  readonly state: SessionFacts = {
    root: process.cwd(),
    model: 'scripted-model',
    profile: 'default',
    profiles: ['default', 'fast'],
    mode: 'agent',
    approvals: 'safe',
    contextWindow: 32_000,
    contextTokens: 8_000,
    promptTokens: 0,
    cachedTokens: 0,
    completionTokens: 0,
    requests: 0,
  };

  constructor(private readonly turns: ScriptedTurn[]) {}

  facts(): SessionFacts {
    return this.state;
  }
  filePaths(): readonly string[] | undefined {
    return this.paths;
  }
  async ready(): Promise<void> {}
  async runTurn(input: string, onEvent: (event: UiEvent) => void, images: readonly Image[] = [], options?: { readOnly?: boolean }): Promise<TurnOutcome> {
    this.inputs.push(input);
    this.turnOptions.push(options);
    this.images.push(images);
    const turn = this.turns.shift();
    if (!turn) return { status: 'error', error: 'no scripted turn left' };
    const controller = new AbortController();
    this.controller = controller;
    const aborted = new Promise<void>((resolve) => onAbort(controller.signal, () => resolve()));
    const ask = (request: ApprovalRequest) => this.askPerson!(request, controller.signal);
    try {
      return await turn(input, { emit: onEvent, ask, aborted });
    } finally {
      this.controller = undefined;
    }
  }
  abort(): void {
    this.calls.push('abort');
    this.controller?.abort();
  }
  async compact(): Promise<string> {
    this.calls.push('compact');
    return 'compacted: 8k → 3k tokens';
  }
  reset(): void {
    this.calls.push('reset');
  }
  async cd(path: string): Promise<string> {
    this.calls.push(`cd ${path}`);
    return `now in ${path}: 12 files, repo map 3 files`;
  }
  async switchModel(name: string): Promise<string> {
    this.calls.push(`model ${name}`);
    this.state.profile = name;
    return `switched to ${name}; the server's prefix cache starts over`;
  }
  setMode(mode: SessionMode): void {
    this.calls.push(`mode ${mode}`);
    this.state.mode = mode;
  }
  setApprovals(mode: 'safe' | 'off'): void {
    this.calls.push(`approvals ${mode}`);
    this.state.approvals = mode;
  }
  async close(): Promise<void> {
    this.calls.push('close');
  }
}
