import { client, defineActor } from '../../runtime/actor.js';
import { askClearance } from '../../runtime/clearance.js';
import { ProcessGroups } from './process/process-groups.js';
import { type ToolExecutorProtocol, type ToolResult } from './protocol.js';
import { EDITOR_FILES } from '../editor-files/protocol.js';
import { APPROVER } from '../approver/protocol.js';
import { editorFiles } from './files/editor-files.js';
import { runTool } from './run-tool.js';
import { SpillStore } from './files/spill.js';
import { closeSearchPool } from './files/search/search-pool.js';

/**
 * The tool-executor actor. It runs in a child process (`supervisor.spawn({ name: 'tool-executor',
 * kind: 'process', module })`) so a runaway command or a crash cannot take the UI down. It keeps
 * no session state: root, approvals mode and agent mode come with every call.
 */
const spill = new SpillStore();
const groups = new ProcessGroups();

export default defineActor<ToolExecutorProtocol>({
  setup() {
    // A previous incarnation that crashed mid-command may have left its processes behind.
    groups.reapLeftovers();
  },

  async handle(request, context): Promise<ToolResult> {
    if (request?.type !== 'run') throw new Error(`the tool executor does not understand a "${String((request as { type?: unknown })?.type)}" request`);
    const files = editorFiles(request.context, (asked) => client(context, EDITOR_FILES).request(asked));
    return runTool(
      request,
      { root: request.context.root, settings: request.context.settings, signal: context.signal, emit: (delta) => context.emit(delta), spill, groups, clear: () => askClearance(context), ...(files ? { files } : {}) },
      (approval) => client(context, APPROVER).request(approval),
    );
  },

  async dispose() {
    await Promise.all([groups.killAll(), closeSearchPool()]);
    spill.dispose();
  },
});
