import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientCapabilities,
  type ClientConnection,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import { startScriptedServer, type ScriptedServer } from '../../helpers/scripted-server.js';
import { reikaBin } from '../../helpers/binary.js';
import { testSite, watchChild } from '../../helpers/watchdog.js';
import { cleanEnv } from '../headless-helpers.js';

/**
 * `reika acp` as an editor runs it: the built binary as a child process, driven by the SDK's own
 * `client()` over its stdin/stdout. Updates are gathered per session; permission requests and
 * the editor's files are answered by the test's functions.
 */

export interface EditorOptions {
  cwd: string;
  env?: Record<string, string>;
  args?: string[];
  /** How the editor answers a permission request (default: rejects once). */
  permission?(request: RequestPermissionRequest): RequestPermissionResponse | Promise<RequestPermissionResponse>;
  /** Offered as `fs.readTextFile` when given. */
  readTextFile?(request: ReadTextFileRequest): ReadTextFileResponse | Promise<ReadTextFileResponse>;
  /** Offered as `fs.writeTextFile` when given. */
  writeTextFile?(request: WriteTextFileRequest): void | Promise<void>;
}

export interface Editor {
  child: ChildProcessWithoutNullStreams;
  connection: ClientConnection;
  /** Every `session/update` received, in order. */
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  stderr(): string;
  /** Settles with the exit code when the process ended. */
  exited: Promise<number | null>;
  initialize(): Promise<Awaited<ReturnType<ClientConnection['agent']['request']>>>;
  /** Resolves once an update matching `test` has arrived (checked against those already in). */
  waitFor(test: (update: SessionNotification) => boolean): Promise<SessionNotification>;
  /** Closes stdin (the editor went away). */
  close(): void;
}

export function startEditor(options: EditorOptions): Editor {
  const child = spawn(process.execPath, [reikaBin, 'acp', ...(options.args ?? [])], { cwd: options.cwd, env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  watchChild(child, 'reika acp', { site: testSite() });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const waiters = new Set<{ test: (update: SessionNotification) => boolean; resolve: (update: SessionNotification) => void }>();
  const app = client({ name: 'test-editor' })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
      for (const waiter of waiters) {
        if (waiter.test(params)) {
          waiters.delete(waiter);
          waiter.resolve(params);
        }
      }
    })
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      return options.permission ? options.permission(params) : { outcome: { outcome: 'selected', optionId: 'reject_once' } };
    });
  if (options.readTextFile) app.onRequest(methods.client.fs.readTextFile, ({ params }) => options.readTextFile!(params));
  if (options.writeTextFile) {
    app.onRequest(methods.client.fs.writeTextFile, async ({ params }) => {
      await options.writeTextFile!(params);
      return {};
    });
  }
  const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  const capabilities: ClientCapabilities = { fs: { readTextFile: options.readTextFile !== undefined, writeTextFile: options.writeTextFile !== undefined } };
  return {
    child,
    connection,
    updates,
    permissions,
    stderr: () => stderr,
    exited,
    initialize: () => connection.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: capabilities, clientInfo: { name: 'test-editor', version: '1' } }),
    waitFor(test) {
      const found = updates.find(test);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.add({ test, resolve }));
    },
    close() {
      child.stdin.end();
    },
  };
}

/** The updates of one kind (`tool_call`, `agent_message_chunk`…), their `update` objects. */
export function updatesOf<K extends SessionNotification['update']['sessionUpdate']>(editor: Editor, kind: K): Array<Extract<SessionNotification['update'], { sessionUpdate: K }>> {
  return editor.updates.map((n) => n.update).filter((u): u is Extract<SessionNotification['update'], { sessionUpdate: K }> => u.sessionUpdate === kind);
}

/** The answer as the editor shows it: the agent's message chunks joined. */
export function answerText(editor: Editor): string {
  return updatesOf(editor, 'agent_message_chunk')
    .map((u) => (u.content.type === 'text' ? u.content.text : ''))
    .join('');
}

/**
 * A test file's scripted servers and editors, closed after its last test: `server()` and
 * `editor()` start one and keep it for the teardown.
 */
export function acpFixtures(after: (fn: () => Promise<void>) => void): { server: typeof startScriptedServer; editor: typeof startEditor } {
  const servers: ScriptedServer[] = [];
  const editors: Editor[] = [];
  after(async () => {
    for (const editor of editors) editor.close();
    await Promise.all(editors.map((editor) => editor.exited));
    await Promise.all(servers.map((s) => s.close()));
  });
  return {
    async server(...args) {
      const s = await startScriptedServer(...args);
      servers.push(s);
      return s;
    },
    editor(options) {
      const started = startEditor(options);
      editors.push(started);
      return started;
    },
  };
}

/** The session settings every ACP test runs reika with, against scripted server `s`. */
export const acpEnv = (s: ScriptedServer, extra: Record<string, string> = {}): Record<string, string> => ({ REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32768', ...extra });
