import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { agent, PROTOCOL_VERSION, RequestError, methods, type AgentApp, type ClientCapabilities, type InitializeResponse } from '@agentclientprotocol/sdk';
import { loadConfig, type Config } from '../../actors/config/load-config.js';
import { ConfigError } from '../../actors/settings/parse.js';
import type { McpServerConfig } from '../../actors/mcp/config.js';
import type { SessionMode } from '../../actors/session/frozen-prompt.js';
import { newSessionId } from '../../actors/transcript/store-paths.js';
import { applySessionFlags, type SessionFlags } from '../session-flags.js';
import { locateSession, openSession, resumedConfig, SessionChoiceError, type LocatedSession, type OpenedSession } from '../open-session.js';
import { version } from '../version.js';
import { traceStartup } from '../../actors/indexer/startup-trace.js';
import { editorLink, type EditorLink } from './editor-link.js';
import type { EditorSession } from './editor-session.js';
import { editorMcpServers } from './editor-mcp.js';

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
  const open = async (id: string, root: string, config: Config, opened: OpenedSession, client: Parameters<typeof editorLink>[0], mcpServers: McpServerConfig[]): Promise<EditorSession> => {
    const mode: SessionMode | undefined = options.flags.mode;
    const { EditorSession } = await sessionModule;
    const session = new EditorSession({ id, root, config, opened, editor: link(client), log: options.log, mcpServers, ...(mode ? { mode } : {}) });
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
    const root = folder(params.cwd);
    const config = configFor(root, options.flags);
    const servers = editorMcpServers(params.mcpServers, root);
    // The transcript takes the session's id, so a later `session/load` of this id finds it.
    const id = newSessionId();
    const opened = openSession(undefined, config, { id, onProblem: options.log });
    const session = await open(id, root, config, opened, client, servers);
    setImmediate(() => session.announceCommands());
    return { sessionId: session.id, modes: session.modes };
  });

  app.onRequest(methods.agent.session.load, async ({ params, client }) => {
    if (sessions.has(params.sessionId)) throw RequestError.invalidRequest(undefined, `session ${params.sessionId} is open already`);
    const cwd = folder(params.cwd);
    const notes: string[] = [];
    let located: LocatedSession | undefined;
    let opened: OpenedSession;
    let config: Config;
    let servers: McpServerConfig[];
    try {
      located = locateSession({ resume: params.sessionId }, cwd, notes);
      if (!located) throw new SessionChoiceError(`no session ${params.sessionId}`);
      config = configFor(located.root, options.flags);
      servers = editorMcpServers(params.mcpServers, located.root);
      opened = openSession(located, config, { onProblem: options.log });
    } catch (error) {
      // The first line is the sentence; the rest lists the folder's other sessions, for a person at a terminal.
      if (SessionChoiceError.isInstance(error)) throw new RequestError(-32002, error.message.split('\n')[0]!);
      throw error;
    }
    for (const note of [...notes, ...opened.notes]) options.log(note);
    const session = await open(params.sessionId, located.root, resumedConfig(config, opened.resume, options.flags.profile), opened, client, servers);
    // The conversation so far, before the answer: the editor shows it, then the next prompt goes on from it.
    session.replay();
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

/** The session's folder: absolute and existing, or one sentence why not. */
function folder(cwd: string): string {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path, not "${cwd}"`);
  let ok = false;
  try {
    ok = statSync(cwd).isDirectory();
  } catch {
    // said below
  }
  if (!ok) throw RequestError.invalidParams(undefined, `cwd ${cwd} is not a folder`);
  return cwd;
}

/** The configuration of that folder (its .env), with the command line's flags; a bad value is one sentence. */
function configFor(root: string, flags: SessionFlags): Config {
  try {
    return applySessionFlags(loadConfig({ cwd: root }), flags);
  } catch (error) {
    if (ConfigError.isInstance(error)) throw new RequestError(-32603, error.message);
    throw error;
  }
}
