import { client, defineActor, type ActorDefinition, type RequestContext } from '../../runtime/actor.js';
import { isCancelled, ReikaError } from '../../runtime/errors.js';
import type { ActorSpec } from '../../runtime/transport.js';
import { MODEL_IO, type Endpoint } from '../model-io/protocol.js';
import type { ToolDelta, ToolResult } from '../tool-executor/protocol.js';
import { describe } from '../agent/turn.js';
import { coverage, namedFiles, notCoveredSection } from './coverage.js';
import { subagentAddress, type DispatcherProtocol, type DispatchRequest, type SubagentBrief, type SubagentReport } from './protocol.js';
import { reportResult } from './report.js';

// The dispatcher (`subagents`, main thread): for each `subagent` call it spawns a worker-thread
// actor `subagent/N`, hands it the task, relays its progress, and stops it once it has replied,
// so nothing of a wave outlives it. The call arrives in the turn's abort scope, so the turn's one
// abort reaches the subagent and every request it made. A subagent that crashes or never
// answers still yields a report: the calls it had streamed so far.

/** What the dispatcher needs of the supervisor. */
export interface Spawner {
  spawn(spec: ActorSpec): Promise<void>;
  stop(name: string): Promise<void>;
}

export interface DispatcherOptions {
  /** The subagent actor's module (default `./actor.js`). */
  module?: URL;
  /** Worker-thread names are `${prefix}N` (default `subagent/`). */
  prefix?: string;
}

const subagentModule = new URL('./actor.js', import.meta.url);

export function subagentDispatcher(supervisor: Spawner, options: DispatcherOptions = {}): ActorDefinition<DispatcherProtocol> {
  let next = 0;
  const settled = new Map<string, Promise<{ endpoint: Endpoint; window?: number }>>();

  /** A subagent endpoint of its own is asked once for its model and window; failures are asked again. */
  const settle = (brief: SubagentBrief, context: RequestContext): Promise<{ endpoint: Endpoint; window?: number }> => {
    if (!brief.discover) return Promise.resolve({ endpoint: brief.endpoint, window: brief.window });
    const key = `${brief.endpoint.baseUrl}\0${brief.endpoint.model}\0${brief.endpoint.apiKey ?? ''}`;
    let promise = settled.get(key);
    if (!promise) {
      promise = discoverEndpoint(brief, context);
      settled.set(key, promise);
      promise.catch(() => settled.delete(key));
    }
    return promise;
  };

  return defineActor<DispatcherProtocol>({
    async handle(request, context): Promise<ToolResult> {
      const name = subagentAddress(options.prefix ?? 'subagent/', ++next);
      const lines: string[] = [];
      const reads: string[] = [];
      const spawned = supervisor.spawn({ name, title: `subagent ${next}`, kind: 'thread', module: options.module ?? subagentModule, restart: false });
      spawned.catch(() => {});
      try {
        const { endpoint, window } = await settle(request.brief, context);
        await spawned;
        // The settled endpoint is shared by the subagents of its server; each keeps its own llama.cpp slot.
        const own = request.brief.endpoint.llamaCpp;
        const brief: SubagentBrief = { ...request.brief, endpoint: own ? { ...endpoint, llamaCpp: own } : endpoint, discover: false, ...(window !== undefined ? { window } : {}) };
        const report = await client(context, name).request({ ...request, brief }, {
          onDelta: (delta) => {
            lines.push(delta.text.trimEnd());
            if (delta.read !== undefined) reads.push(delta.read);
            context.emit({ type: 'output', stream: delta.stream, text: delta.text } satisfies ToolDelta);
          },
        });
        return reportResult(request.callId, report);
      } catch (error) {
        return reportResult(request.callId, salvage(request, error, context.signal.aborted, lines, reads));
      } finally {
        await supervisor.stop(name);
      }
    },
  });
}

/** Asks the subagent's own server for its model (when unset) and window. */
async function discoverEndpoint(brief: SubagentBrief, context: RequestContext): Promise<{ endpoint: Endpoint; window?: number }> {
  const reply = await client(context, MODEL_IO).request({ type: 'discover', endpoint: brief.endpoint });
  const endpoint = { ...brief.endpoint };
  if (endpoint.model === '') {
    if (reply.models.length !== 1) {
      const offer = reply.models.length === 0 ? 'lists no models' : `offers ${reply.models.length} models (${reply.models.slice(0, 8).join(', ')})`;
      throw new ReikaError('REIKA_ERR_MODEL_UNSET', `REIKA_SUBAGENT_MODEL is not set and the subagent server at ${endpoint.baseUrl} ${offer} — set REIKA_SUBAGENT_MODEL.`);
    }
    endpoint.model = reply.models[0]!;
  }
  return { endpoint, window: brief.window ?? reply.contextWindow };
}

/** The report of a subagent that could not answer itself: what it streamed before it ended. */
function salvage(request: DispatchRequest, error: unknown, aborted: boolean, lines: string[], reads: string[]): SubagentReport {
  const cancelled = aborted || isCancelled(error);
  const reason = cancelled ? 'the turn was aborted' : `it failed: ${describe(error).message}`;
  const cover = coverage(
    request.brief.root,
    namedFiles(request.brief.root, request.task, request.files),
    reads.map((path) => ({ id: '', name: 'read', arguments: { path }, status: 'done' as const, summary: '' })),
  );
  const parts = [`[the subagent stopped before its report: ${reason}; what it found so far follows]`];
  if (lines.length > 0) parts.push(['Tool calls it made:', ...lines.map((line) => `- ${line}`)].join('\n'));
  parts.push(notCoveredSection(cover));
  return {
    status: cancelled ? 'aborted' : 'error',
    report: parts.join('\n\n'),
    read: cover.read,
    notCovered: cover.notCovered,
    requests: 0,
    usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reported: 0 },
    ...(cancelled ? {} : { error: describe(error) }),
  };
}
