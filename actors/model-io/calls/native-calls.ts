import type { ToolCall } from '../protocol.js';
import type { WireDelta } from './map-chunk.js';
import { parseArguments } from './parse-arguments.js';

interface Partial {
  id?: string;
  name: string;
  args: string;
  object?: Record<string, unknown>;
}

/** The result of assembling native calls: the calls and anything worth telling the agent loop. */
export interface AssembledCalls {
  calls: ToolCall[];
  notices: string[];
}

/**
 * Assembles native `tool_calls` deltas by index. Ids may come in any delta or never (reika then
 * makes one), names may be repeated in later deltas, and arguments may arrive as many string
 * fragments or as one object.
 */
export class NativeCallAssembler {
  private readonly partials = new Map<number, Partial>();
  /** Wire index → key in `partials`; moves on when a server reuses an index for a new call. */
  private readonly slots = new Map<number, number>();

  get size(): number {
    return this.partials.size;
  }

  push(delta: WireDelta & { kind: 'tool' }): void {
    let key = this.slots.get(delta.index);
    let partial = key === undefined ? undefined : this.partials.get(key);
    // A server that omits `index` but starts a call with a new id and a name means a new call.
    if (partial && delta.id && partial.id && delta.id !== partial.id && delta.name) partial = undefined;
    if (!partial) {
      key = this.partials.size;
      partial = { name: '', args: '' };
      this.partials.set(key, partial);
      this.slots.set(delta.index, key);
    }
    if (delta.id && !partial.id) partial.id = delta.id;
    if (delta.name && !partial.name) partial.name = delta.name;
    if (typeof delta.args === 'string') partial.args += delta.args;
    else if (delta.args) partial.object = delta.args;
  }

  /** The complete calls in the order they started; `makeId` names calls the server left without an id. */
  finish(makeId: () => string): AssembledCalls {
    const calls: ToolCall[] = [];
    const notices: string[] = [];
    for (const partial of this.partials.values()) {
      if (!partial.name) {
        notices.push(`Ignored a native tool call without a name (arguments: ${preview(partial.args)}).`);
        continue;
      }
      const call: ToolCall = { id: partial.id ?? makeId(), name: partial.name, arguments: {}, source: 'native' };
      if (partial.object) {
        call.arguments = partial.object;
      } else {
        const parsed = parseArguments(partial.args);
        if (parsed.ok) {
          call.arguments = parsed.value;
        } else {
          call.rawArguments = partial.args;
          notices.push(`The arguments of ${partial.name} were not valid JSON (${parsed.error}): ${preview(partial.args)}`);
        }
      }
      calls.push(call);
    }
    return { calls, notices };
  }
}

function preview(text: string): string {
  return text.length > 120 ? `${text.slice(0, 119)}…` : text || '(empty)';
}
