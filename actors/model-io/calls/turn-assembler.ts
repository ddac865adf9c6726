import { repeatedCallNotices } from './canonical-call.js';
import type { WireDelta } from './map-chunk.js';
import { NativeCallAssembler } from './native-calls.js';
import type { ChatReply, FinishReason, ModelEvent, ToolCall, Usage } from '../protocol.js';
import { correctiveNote, problemLine, type CallProblem } from '../dialects/corrective-note.js';
import { TextCallParser, type TextItem } from './text-calls.js';
import { ThinkSplitter } from './think-splitter.js';
import type { ToolIndex } from './tool-index.js';

/**
 * Turns the wire deltas of one attempt into the normalised event stream and the final
 * {@link ChatReply}. Call markup that could not be used is not text: it leaves a notice and the
 * corrective note. Content goes through `<think>` splitting and the text-fallback parser;
 * reasoning goes through the parser too (tagged formats only), for calls that leaked there. Calls found in the content
 * are streamed as soon as they are complete; native calls at the end, when their arguments are;
 * leaked reasoning calls only when the turn has no other calls (a model drafting its call in its
 * thoughts and then making it properly must not run it twice).
 */
export class TurnAssembler {
  private text = '';
  private reasoning = '';
  private readonly notices: string[] = [];
  private readonly textCalls: ToolCall[] = [];
  private readonly reasoningCalls: ToolCall[] = [];
  private readonly problems: Array<CallProblem & { channel: 'text' | 'reasoning' }> = [];
  private readonly dialects: string[] = [];
  private readonly native = new NativeCallAssembler();
  private readonly think = new ThinkSplitter();
  private readonly contentParser: TextCallParser | undefined;
  private readonly reasoningParser: TextCallParser | undefined;
  private finishReason: FinishReason | undefined;
  private usage: Usage | null = null;

  constructor(
    private readonly tools: ToolIndex,
    private readonly emit: (event: ModelEvent) => void,
    private readonly makeId: () => string,
  ) {
    if (tools.names.size > 0) {
      this.contentParser = new TextCallParser(tools);
      this.reasoningParser = new TextCallParser(tools, { channel: 'reasoning' });
    }
  }

  push(delta: WireDelta): void {
    switch (delta.kind) {
      case 'text':
        for (const piece of this.think.push(delta.text)) this.channel(piece.channel, piece.text, false);
        break;
      case 'reasoning':
        this.channel('reasoning', delta.text, false);
        break;
      case 'tool':
        this.native.push(delta);
        break;
      case 'finish':
        this.finishReason = delta.reason;
        break;
      case 'usage':
        this.usage = delta.usage;
        break;
      case 'progress':
        this.emit({ type: 'prefill-progress', ...delta.progress });
        break;
      case 'error':
        break; // the caller turns stream errors into failures
    }
  }

  notice(message: string): void {
    this.notices.push(message);
    this.emit({ type: 'notice', message });
  }

  /** Ends the turn. An aborted turn keeps its text and reasoning but runs no calls. */
  finish(aborted: boolean): ChatReply {
    for (const piece of this.think.end()) this.channel(piece.channel, piece.text, false);
    this.channel('text', '', true);
    this.channel('reasoning', '', true);
    const native = this.native.finish(this.makeId);
    for (const message of native.notices) this.notice(message);
    let toolCalls: ToolCall[] = [];
    if (!aborted) {
      for (const call of native.calls) this.emit({ type: 'tool-call', call });
      toolCalls = [...native.calls, ...this.textCalls];
      if (toolCalls.length === 0) {
        for (const call of this.reasoningCalls) this.emit({ type: 'tool-call', call });
        toolCalls = this.reasoningCalls;
      } else if (this.reasoningCalls.length) {
        this.notice(`Ignored ${this.reasoningCalls.length} tool call(s) written in the reasoning: the model also made its calls normally.`);
      }
      for (const message of repeatedCallNotices(toolCalls)) this.notice(message);
    }
    let finishReason: FinishReason = aborted ? 'aborted' : (this.finishReason ?? 'stop');
    if (!aborted && toolCalls.length && finishReason === 'stop') finishReason = 'tool_calls';
    const reply: ChatReply = { text: this.text, reasoning: this.reasoning, toolCalls, finishReason, usage: this.usage, notices: [...this.notices] };
    const dialect = native.calls.length ? 'native' : this.dialects[0];
    if (dialect) reply.dialect = dialect;
    // Broken markup in the thoughts matters only when the reply has no call at all.
    const problems = this.problems.filter((problem) => problem.channel === 'text' || toolCalls.length === 0);
    if (!aborted && problems.length) {
      reply.correction = correctiveNote(problems, this.tools);
      reply.dialect ??= problems[0]!.dialect;
    }
    this.emit({ type: 'finish', finishReason, usage: this.usage });
    return reply;
  }

  private channel(channel: 'text' | 'reasoning', text: string, final: boolean): void {
    const parser = channel === 'text' ? this.contentParser : this.reasoningParser;
    if (!parser) {
      if (text) this.out(channel, text);
      return;
    }
    const items = final ? parser.end() : parser.push(text);
    for (const item of items) this.item(channel, item);
  }

  private item(channel: 'text' | 'reasoning', item: TextItem): void {
    switch (item.type) {
      case 'text':
        return this.out(channel, item.text);
      case 'reasoning':
        return this.out('reasoning', item.text);
      case 'malformed': {
        // Markup is never the answer (SPEC §10): it is reported to the user in one line and to the
        // model in the corrective note, and kept out of the text.
        const problem: CallProblem = { dialect: item.dialect, reason: item.reason, ...(item.unknownTool ? { unknownTool: item.unknownTool } : {}) };
        this.problems.push({ ...problem, channel });
        return this.notice(problemLine(problem));
      }
      case 'call': {
        this.dialects.push(item.dialect);
        const call: ToolCall = { id: this.makeId(), name: item.name, arguments: item.arguments, source: channel === 'text' ? 'text' : 'reasoning' };
        if (channel === 'reasoning') return void this.reasoningCalls.push(call);
        this.textCalls.push(call);
        return this.emit({ type: 'tool-call', call });
      }
    }
  }

  private out(channel: 'text' | 'reasoning', text: string): void {
    if (!text) return;
    if (channel === 'text') {
      this.text += text;
      this.emit({ type: 'text-delta', text });
    } else {
      this.reasoning += text;
      this.emit({ type: 'reasoning-delta', text });
    }
  }
}
