import { defineActor } from '../../../runtime/actor.js';
import type { SubagentProtocol } from '../../../actors/subagent/protocol.js';

/** A subagent that reports one read as progress, then crashes its thread. */
export default defineActor<SubagentProtocol>({
  handle(_request, context) {
    context.emit({ type: 'output', stream: 'stdout', text: 'read src/a.ts — 1 line\n', read: 'src/a.ts' });
    setImmediate(() => {
      throw new Error('boom in the subagent');
    });
    return new Promise(() => {});
  },
});
