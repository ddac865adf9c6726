import { nanoid } from 'nanoid';
import type { AgentEvent, TurnResult } from '../../../actors/agent/events.js';
import { runTurn } from '../../../actors/agent/turn.js';
import { ContextManager } from '../../../actors/context/context-manager.js';
import { subagentDispatcher } from '../../../actors/subagent/dispatcher.js';
import { SUBAGENTS, type SubagentBrief } from '../../../actors/subagent/protocol.js';
import { SubagentWaves } from '../../../actors/subagent/wave.js';
import { builtinTools } from '../../../actors/tool-executor/registry.js';
import { Supervisor } from '../../../runtime/index.js';
import { startScriptedServer, type ScriptedReply, type ScriptedRequest, type ScriptedServer } from '../../helpers/scripted-server.js';
import { tempDir, writeTree, type Tree } from '../../helpers/temp.js';
import { MODEL_IO } from '../../../actors/model-io/protocol.js';
import { TOOL_EXECUTOR } from '../../../actors/tool-executor/protocol.js';
import { toolSettings } from '../../helpers/tool-settings.js';

/**
 * A parent turn with real subagents: model-io in a worker thread, the tool executor in a child
 * process, the dispatcher in the main thread, all against one scripted server that answers the
 * parent and each subagent by who is asking (the subagent's system prompt and task).
 */

export const PARENT_SYSTEM = 'You are the parent agent of a test.';
export const SUBAGENT_SYSTEM = 'You are a reika subagent of a test.';

const modelIoModule = new URL('../../../actors/model-io/actor.js', import.meta.url);
const executorModule = new URL('../../../actors/tool-executor/actor.js', import.meta.url);

/** A chat request as the script sees it. */
export interface Ask {
  request: ScriptedRequest;
  /** The subagent's task (first user message), or undefined for the parent. */
  task?: string;
  /** Requests this asker made before this one (0 for its first). */
  round: number;
}

export interface Harness {
  supervisor: Supervisor;
  server: ScriptedServer;
  root: string;
  /** Names of every subagent actor the dispatcher spawned. */
  spawned: string[];
  /** Runs one parent turn; `abort()` sends the turn's one abort. */
  turn(prompt: string, options?: { maxTurns?: number; onEvent?: (event: AgentEvent, abort: () => void) => void }): Promise<{ result: TurnResult; events: AgentEvent[]; waves: SubagentWaves }>;
}

export async function harness(
  t: { teardown(fn: () => Promise<void>): void },
  tree: Tree,
  script: (ask: Ask) => ScriptedReply | Promise<ScriptedReply>,
  options: { maxTurns?: number } = {},
): Promise<Harness> {
  const root = writeTree(tempDir('reika-subagent-'), tree);
  const rounds = new Map<string, number>();
  const server = await startScriptedServer((request) => {
    const messages = request.json.messages as Array<{ role: string; content: string }>;
    const task = messages[0]!.content === SUBAGENT_SYSTEM ? messages[1]!.content : undefined;
    const key = task ?? '(parent)';
    const round = rounds.get(key) ?? 0;
    rounds.set(key, round + 1);
    return script({ request, task, round });
  });
  const supervisor = new Supervisor();
  t.teardown(async () => {
    await supervisor.close();
    await server.close();
  });
  const spawned: string[] = [];
  const spawner = {
    spawn: (spec: Parameters<Supervisor['spawn']>[0]) => {
      spawned.push(spec.name);
      return supervisor.spawn(spec);
    },
    stop: (name: string) => supervisor.stop(name),
  };
  await Promise.all([
    supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: modelIoModule, options: { retry: { baseDelayMs: 10 } } }),
    supervisor.spawn({ name: TOOL_EXECUTOR, kind: 'process', module: executorModule }),
    supervisor.register(SUBAGENTS, subagentDispatcher(spawner)),
  ]);
  const endpoint = { baseUrl: server.url, model: 'scripted-model', requestTimeoutMs: 0 };
  const brief: SubagentBrief = { root, system: SUBAGENT_SYSTEM, tools: builtinTools.toolsArray('subagent'), endpoint, discover: false, maxTurns: options.maxTurns ?? 8, approvals: 'safe', toolSettings: toolSettings(root) };
  const tools = builtinTools.toolsArray('agent');

  return {
    supervisor,
    server,
    root,
    spawned,
    async turn(prompt, turnOptions = {}) {
      const id = nanoid(6);
      const scope = `turn-${id}`;
      const controller = new AbortController();
      const abort = () => {
        supervisor.abort(scope, 'aborted by the test');
        controller.abort('aborted by the test');
      };
      const events: AgentEvent[] = [];
      const waves = new SubagentWaves({ router: supervisor, brief: { ...brief, maxTurns: turnOptions.maxTurns ?? brief.maxTurns } });
      const result = await runTurn(prompt, {
        router: supervisor,
        turn: id,
        scope,
        signal: controller.signal,
        endpoint,
        tools,
        toolContext: { root, approvals: 'safe', mode: 'agent', settings: toolSettings(root) },
        context: new ContextManager({ system: PARENT_SYSTEM, tools, window: 100_000 }),
        maxRequests: 20,
        wave: waves,
        emit: (event) => {
          events.push(event);
          turnOptions.onEvent?.(event, abort);
        },
      });
      return { result, events, waves };
    },
  };
}

/** A parent reply dispatching one subagent per task. */
export function dispatch(tasks: Array<string | { task: string; files?: string[] }>, extra: ScriptedReply['toolCalls'] = []): ScriptedReply {
  return {
    toolCalls: [
      ...tasks.map((task, i) => ({ id: `sub_${i}_${nanoid(4)}`, name: 'subagent', arguments: typeof task === 'string' ? { task } : task })),
      ...(extra ?? []),
    ],
  };
}

/** Tool messages of a chat request, by call id. */
export function toolMessages(request: ScriptedRequest): Map<string, string> {
  const out = new Map<string, string>();
  for (const message of request.json.messages as Array<{ role: string; tool_call_id?: string; content: string }>) {
    if (message.role === 'tool') out.set(message.tool_call_id!, message.content);
  }
  return out;
}

/** Tool messages of a chat request in order, each with the name of the call it answers (paired by id). */
export function toolResults(request: ScriptedRequest): Array<{ name: string; content: string }> {
  const messages = request.json.messages as Array<{ role: string; tool_call_id?: string; content: string; tool_calls?: Array<{ id: string; function: { name: string } }> }>;
  const names = new Map<string, string>();
  for (const message of messages) for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  return messages.filter((m) => m.role === 'tool').map((m) => ({ name: names.get(m.tool_call_id!) ?? '?', content: m.content }));
}
