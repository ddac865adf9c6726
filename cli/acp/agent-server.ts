import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { agent, PROTOCOL_VERSION, RequestError, methods, type AgentApp, type ClientCapabilities, type InitializeResponse, type McpServer } from '@agentclientprotocol/sdk';
import { ConfigError } from '../../actors/settings/parse.js';
import type { SessionMode } from '../../actors/session/frozen-prompt.js';
import { newSessionId } from '../../actors/transcript/store-paths.js';
import { findSession } from '../../actors/transcript/session-catalog.js';
import { ReikaError } from '../../runtime/errors.js';
import type { SessionFlags } from '../session-flags.js';
import { SessionChoiceError, type SessionChoice } from '../open-session.js';
import { startSessionAt, type SessionStart } from '../begin-session.js';
import { version } from '../version.js';
import { traceStartup } from '../../actors/indexer/startup-trace.js';
import { editorLink, type EditorLink } from './editor-link.js';
import type { EditorSession } from './editor-session.js';
import { editorMcpServers } from './editor-mcp.js';
import { issuedFolder, rememberIssued } from './issued-sessions.js';

export interface AgentServerOptions {
  /** `reika acp --profile NAME --mode plan --approvals off`. */
  flags: SessionFlags;
  log(line: string): void;
}

/**
 * reika as an ACP agent (SPEC §18): the handlers of the protocol's methods, over one connection.
 * Each `session/new` or `session/load` makes an {@link EditorSession}; requests name it by id.
 * Whatever goes wrong in a handler is a JSON-RPC error with one sentence; nothing is printed on
 * stdout but the protocol (logs go to `log`, stderr).
 */
export interface AgentServer {
  app: AgentApp;
  /** Ends every session: turns aborted, actors and processes ended. */
  close(): Promise<void>;
}

export function agentServer(options: AgentServerOptions): AgentServer {
  // The session's machinery (the agent loop, the runtime, the tools' registry) loads while the
  // editor initializes: `initialize` is answered without it, `session/new` waits for it.
  const sessionModule = import('./editor-session.js');
  sessionModule.catch(() => {});
  const sessions = new Map<string, EditorSession>();
  let capabilities: ClientCapabilities = {};
  const app = agent({ name: 'reika' });

  const link = (client: Parameters<typeof editorLink>[0]): EditorLink => editorLink(client, capabilities, options.log);
  const find = (id: string): EditorSession => {
    const session = sessions.get(id);
    if (!session) throw new RequestError(-32002, `no session ${id} in this reika (session/new or session/load first)`);
    return session;
  };
  /**
   * Opens session `id` in the editor's folder the way the terminal does (begin-session.ts), new or
   * the stored one `choice` names; its refusals are JSON-RPC errors, its notes go to the log.
   */
  const open = async (id: string, cwd: string, choice: SessionChoice | undefined, mcpServers: McpServer[], client: Parameters<typeof editorLink>[0]): Promise<EditorSession> => {
    // A bad server name is refused before anything is opened (no transcript locked or copied).
    editorMcpServers(mcpServers, cwd);
    let start: SessionStart;
    try {
      start = await startSessionAt(cwd, options.flags, choice ? { choice, onProblem: options.log } : { id, onProblem: options.log });
    } catch (error) {
      // The first line is the sentence; the rest lists the folder's other sessions, for a person at a terminal.
      if (SessionChoiceError.isInstance(error)) throw new RequestError(-32002, error.message.split('\n')[0]!);
      if (ConfigError.isInstance(error)) throw new RequestError(-32603, error.message);
      throw error;
    }
    for (const note of start.notes) options.log(note);
    const mode: SessionMode | undefined = options.flags.mode;
    const { EditorSession } = await sessionModule;
    const { root, config, opened } = start;
    const session = new EditorSession({ id, root, config, opened, editor: link(client), log: options.log, mcpServers: editorMcpServers(mcpServers, root), ...(mode ? { mode } : {}) });
    sessions.set(id, session);
    return session;
  };

  app.onRequest(methods.agent.initialize, ({ params }): InitializeResponse => {
    traceStartup('acp: initialize');
    capabilities = params.clientCapabilities ?? {};
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
      },
      agentInfo: { name: 'reika', title: 'Reika', version: version() },
      authMethods: [],
    };
  });

  app.onRequest(methods.agent.session.new, async ({ params, client }) => {
    // The transcript takes the session's id, so a later `session/load` of this id finds it.
    const cwd = folder(params.cwd);
    const session = await open(newSessionId(), cwd, undefined, params.mcpServers, client);
    rememberIssued(session.id, cwd);
    setImmediate(() => session.announceCommands());
    return { sessionId: session.id, modes: session.modes };
  });

  app.onRequest(methods.agent.session.load, async ({ params, client }) => {
    if (sessions.has(params.sessionId)) throw RequestError.invalidRequest(undefined, `session ${params.sessionId} is open already`);
    const empty = neverPrompted(params.sessionId);
    // A session that ran in another folder goes on there.
    const session = empty
      ? await open(params.sessionId, folder(isFolder(empty) ? empty : params.cwd), undefined, params.mcpServers, client)
      : await open(params.sessionId, folder(params.cwd), { resume: params.sessionId }, params.mcpServers, client);
    // The conversation so far, before the answer: the editor shows it, then the next prompt goes on from it.
    if (!empty) session.replay();
    setImmediate(() => session.announceCommands());
    return { modes: session.modes };
  });

  app.onRequest(methods.agent.session.prompt, ({ params }) => find(params.sessionId).prompt(params.prompt));

  app.onNotification(methods.agent.session.cancel, ({ params }) => {
    sessions.get(params.sessionId)?.cancel();
  });

  app.onRequest(methods.agent.session.setMode, async ({ params }) => {
    const session = find(params.sessionId);
    if (params.modeId !== 'agent' && params.modeId !== 'plan') throw RequestError.invalidParams(undefined, `no mode "${params.modeId}" (agent or plan)`);
    try {
      await session.setMode(params.modeId);
    } catch (error) {
      throw new RequestError(-32603, error instanceof Error ? error.message : String(error));
    }
    return {};
  });

  return {
    app,
    async close() {
      const closing = [...sessions.values()].map((session) => session.close());
      sessions.clear();
      await Promise.allSettled(closing);
    },
  };
}

/** The folder of a session `session/new` gave out that has no transcript (it was never prompted). */
function neverPrompted(id: string): string | undefined {
  const cwd = issuedFolder(id);
  if (cwd === undefined) return undefined;
  try {
    findSession(id);
    return undefined;
  } catch (error) {
    return ReikaError.isInstance(error) && error.code === 'REIKA_ERR_NO_SUCH_SESSION' ? cwd : undefined;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The session's folder: absolute and existing, or one sentence why not. */
function folder(cwd: string): string {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path, not "${cwd}"`);
  if (!isFolder(cwd)) throw RequestError.invalidParams(undefined, `cwd ${cwd} is not a folder`);
  return cwd;
}
