import test, { type ExecutionContext } from 'ava';
import { ContextManager } from '../../../actors/context/context-manager.js';
import type { ToolCall, ToolSchema } from '../../../actors/model-io/protocol.js';
import { seededRandom } from '../../helpers/scripted-server.js';

/**
 * `ContextManager.chars()` is a running total kept as the conversation changes; after every kind of
 * change it must equal a full walk that renders every message afresh (`recountChars`).
 */

const tools: ToolSchema[] = ['read', 'bash'].map((name) => ({ type: 'function', function: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties: { path: { type: 'string' } } } } }));
const system = `You are a test.\n${'Rules. '.repeat(200)}`;

function call(n: number, args: Record<string, unknown> = { path: `f${n}.ts` }): ToolCall {
  return { id: `c${String(n).padStart(8, '0')}`, name: 'bash', arguments: args, source: 'native' };
}

/** Runs `change`, then holds the running total against the full recount; counts the kinds seen. */
function checker(t: ExecutionContext, context: ContextManager) {
  const seen = new Set<string>();
  return (kind: string, change: () => unknown) => {
    const result = change();
    t.is(context.chars(), context.recountChars(), `after ${kind}`);
    seen.add(kind);
    return { result, seen };
  };
}

test('the running size equals a full recount after every kind of change, window known, unknown and switched', (t) => {
  let window: number | undefined = 6_000;
  const context = new ContextManager({ system, tools, window: () => window });
  const step = checker(t, context);
  let compactions = 0;
  let folded = 0;
  let cut = 0;
  const prepare = () => {
    const prepared = step('prepare', () => context.prepare()).result as ReturnType<ContextManager['prepare']>;
    if (prepared.compaction) compactions++;
    folded += prepared.compaction?.folded ?? 0;
    cut += prepared.cutChars;
    step('usage', () => context.recordUsage({ promptTokens: Math.ceil(prepared.chars / 3.5), completionTokens: 50, cachedTokens: 0 }));
  };
  let n = 0;
  for (let turn = 0; turn < 6; turn++) {
    if (turn === 2) step('user with images', () => context.addUserImages('look', [{ url: 'data:image/png;base64,AAAA', note: '[image: a chart]' }]));
    else step('user', () => context.addUser(`task ${turn} — déjà vu ${'x'.repeat(turn * 100)}`));
    step('nudge as a user message', () => context.addNudge('a nudge'));
    for (let round = 0; round < 8; round++) {
      prepare();
      const calls = round % 3 === 0 ? [call(++n), call(++n, { command: 'y'.repeat(40_000) })] : [call(++n)];
      step('assistant', () => context.addAssistant(round % 2 ? 'looking' : '', calls, undefined, 'thinking'));
      for (const [i, c] of calls.entries()) {
        step(i === 1 ? 'error result (huge arguments shrunk)' : 'result', () =>
          context.addToolResult({ callId: c.id, name: c.name, summary: `ran ${c.id}`, payload: `${n} ü`.repeat(round === 5 ? 40_000 : 300), status: i === 1 ? 'error' : 'done' }),
        );
      }
      if (round === 4) step('nudge in a result', () => context.addNudge('you repeat yourself'));
    }
    prepare();
    if (turn === 1) step('compact by hand', () => context.compact());
    if (turn === 3) step('rebase', () => context.rebase('Another mode.', tools.slice(0, 1)));
    if (turn === 3) step('window found unknown', () => (window = undefined));
    if (turn === 4) step('window known again', () => (window = 32_000));
    step(turn % 2 ? 'end turn unanswered' : 'end turn', () => context.endTurn(turn % 2 ? 'unanswered' : 'answered'));
  }
  t.true(compactions > 0 && folded > 0 && cut > 0, `compactions ${compactions}, folded rounds ${folded}, cut ${cut} characters`);
});

test('the running size equals a full recount over random sessions, and in a manager replayed from its journal', (t) => {
  for (const seed of [1, 2, 3, 4]) {
    const random = seededRandom(seed);
    const ops: Parameters<NonNullable<ConstructorParameters<typeof ContextManager>[0]['journal']>>[0][] = [];
    const context = new ContextManager({ system, tools, window: seed % 2 ? 8_000 : undefined, journal: (op) => ops.push(op) });
    let n = 0;
    for (let turn = 0; turn < 5; turn++) {
      context.addUser(`task ${turn}`);
      for (let round = 0; round < 12; round++) {
        try {
          const prepared = context.prepare();
          context.recordUsage({ promptTokens: Math.ceil(prepared.chars / 3.3), completionTokens: 20, cachedTokens: 0 }, random() < 0.1 ? 'length' : 'stop');
        } catch {
          break;
        }
        const c = call(++n);
        context.addAssistant('', [c]);
        context.addToolResult({ callId: c.id, name: c.name, summary: `ran ${n}`, payload: 'z'.repeat(random() < 0.1 ? 30_000 : Math.floor(random() * 3_000)) });
        if (random() < 0.1) context.compact();
        t.is(context.chars(), context.recountChars(), `seed ${seed}, turn ${turn}, round ${round}`);
      }
      context.endTurn(random() < 0.3 ? 'unanswered' : 'answered');
    }
    const replayed = ContextManager.replay(ops);
    t.is(replayed.chars(), replayed.recountChars(), `seed ${seed}, replayed`);
    t.is(replayed.chars(), context.chars(), `seed ${seed}, replayed as it was`);
  }
});
