import { client } from '../../runtime/actor.js';
import type { RequestOptions, Router } from '../../runtime/calls.js';
import type { WaveHook } from '../agent/turn.js';
import type { ToolCall } from '../model-io/protocol.js';
import type { ToolDelta, ToolResult, ToolResultCode } from '../tool-executor/protocol.js';
import { SUBAGENTS, type DispatchRequest, type SubagentBrief } from './protocol.js';
import { SUBAGENT_TOOL, subagentTool, type SubagentArgs } from '../tool-executor/tools/subagent.js';

// The hard limits on subagents (SPEC §6), kept per turn: the `subagent` calls of one response
// form a wave that runs in parallel before the response's other calls; at most
// {@link WAVE_SIZE} run, the rest are refused with a note to send them in the next wave; at
// most {@link WAVES_PER_TURN} waves per turn, a further one is refused whole.

export const WAVE_SIZE = 4;
export const WAVES_PER_TURN = 3;

export interface WaveOptions {
  router: Router;
  brief: SubagentBrief;
  /** REIKA_SUBAGENT_PROFILES: the wave's i-th subagent takes `spread[i % length]` instead of `brief`. */
  spread?: readonly SubagentBrief[];
  /**
   * A llama-server with several slots at `baseUrl`: the main agent keeps slot 0, the wave's i-th
   * subagent there takes slot 1 + i mod (total − 1), so no subagent evicts the main context.
   */
  slots?: { total: number; baseUrl: string };
}

/** One per turn: counts the turn's waves. */
export class SubagentWaves implements WaveHook {
  private waves = 0;

  constructor(private readonly options: WaveOptions) {}

  /** Waves started so far in this turn. */
  get count(): number {
    return this.waves;
  }

  run(calls: readonly ToolCall[], run: Parameters<WaveHook['run']>[1]): Promise<Map<string, ToolResult>> | undefined {
    const taken = calls.filter((call) => call.name === SUBAGENT_TOOL);
    if (taken.length === 0) return undefined;
    return this.wave(taken, run);
  }

  /** The brief with the `index`-th subagent's own slot, when its server is the slotted llama-server. */
  private slotted(brief: SubagentBrief, index: number): SubagentBrief {
    const slots = this.options.slots;
    if (!slots || slots.total < 2 || brief.endpoint.baseUrl !== slots.baseUrl) return brief;
    return { ...brief, endpoint: { ...brief.endpoint, llamaCpp: { ...brief.endpoint.llamaCpp, slot: 1 + (index % (slots.total - 1)) } } };
  }

  private async wave(taken: ToolCall[], run: Parameters<WaveHook['run']>[1]): Promise<Map<string, ToolResult>> {
    const results = new Map<string, ToolResult>();
    const jobs: Promise<void>[] = [];
    const settle = (call: ToolCall, send: (options: RequestOptions<ToolDelta>) => Promise<ToolResult>) => jobs.push(run(call, send).then((result) => void results.set(call.id, result)));
    const valid: Array<{ call: ToolCall; request: DispatchRequest }> = [];
    const spread = this.options.spread ?? [];
    for (const call of taken) {
      const args = checked(call);
      const brief = this.slotted(spread.length > 0 ? spread[valid.length % spread.length]! : this.options.brief, valid.length);
      if (typeof args !== 'string') valid.push({ call, request: { type: 'run', callId: call.id, task: args.task, files: args.files, brief } });
      else settle(call, async () => refusal(call, 'SUBAGENT_BAD_ARGS', `not run: ${args}.`));
    }
    if (valid.length > 0) this.waves++;
    const over = this.waves > WAVES_PER_TURN;
    valid.forEach(({ call, request }, index) => {
      if (over) {
        settle(call, async () =>
          refusal(call, 'SUBAGENT_WAVE_LIMIT', `not run: at most ${WAVES_PER_TURN} subagent waves run per turn and this turn has had ${WAVES_PER_TURN}. Work with the reports you have, read the remaining files yourself, or answer; the next turn may dispatch new subagents.`),
        );
      } else if (index >= WAVE_SIZE) {
        settle(call, async () =>
          refusal(call, 'SUBAGENT_WAVE_FULL', `not run: at most ${WAVE_SIZE} subagents run in one wave and this response asked for ${valid.length}. Dispatch this one (task: "${brief(request.task)}") in your next response, as part of the next wave${this.waves < WAVES_PER_TURN ? '' : ' — but this turn has no wave left, so do it yourself'}.`),
        );
      } else {
        settle(call, (options) => client(this.options.router, SUBAGENTS).request(request, options));
      }
    });
    await Promise.all(jobs);
    return results;
  }
}

/** The call's checked arguments, or why they are wrong. */
function checked(call: ToolCall): SubagentArgs | string {
  try {
    return subagentTool.validate(call.arguments);
  } catch (error) {
    return (error as Error).message;
  }
}

function refusal(call: ToolCall, code: ToolResultCode, message: string): ToolResult {
  return { callId: call.id, name: call.name, status: 'error', summary: message, payload: '', errorCode: code };
}

function brief(task: string): string {
  const line = task.replace(/\s+/g, ' ');
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}
