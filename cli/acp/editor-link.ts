import { methods, type AgentContext, type ClientCapabilities, type RequestPermissionRequest, type RequestPermissionResponse, type SessionUpdate } from '@agentclientprotocol/sdk';

/**
 * What a session asks of the editor over the ACP connection: updates (notifications, in order,
 * never awaited by the turn), permission questions, and — when the editor offers them — its
 * files (`fs/read_text_file`, `fs/write_text_file`).
 */
export interface EditorLink {
  update(sessionId: string, update: SessionUpdate): void;
  /** Resolves with the editor's answer; `signal` (the turn's abort) withdraws the question. */
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
  /** What the editor said it can do at `initialize`. */
  readonly capabilities: ClientCapabilities;
  /** `fs/read_text_file`: the file as the editor has it (an unsaved buffer wins). */
  readTextFile(sessionId: string, path: string, signal: AbortSignal): Promise<string>;
  /** `fs/write_text_file`: the editor writes (and saves) it. */
  writeTextFile(sessionId: string, path: string, text: string, signal: AbortSignal): Promise<void>;
}

export function editorLink(client: AgentContext, capabilities: ClientCapabilities, log: (line: string) => void): EditorLink {
  return {
    capabilities,
    update(sessionId, update) {
      client.notify(methods.client.session.update, { sessionId, update }).catch((error: unknown) => log(`an update could not be sent: ${error instanceof Error ? error.message : String(error)}`));
    },
    async readTextFile(sessionId, path, signal) {
      return (await client.request(methods.client.fs.readTextFile, { sessionId, path }, { cancellationSignal: signal, stopWaitingOnCancel: true })).content;
    },
    async writeTextFile(sessionId, path, content, signal) {
      await client.request(methods.client.fs.writeTextFile, { sessionId, path, content }, { cancellationSignal: signal, stopWaitingOnCancel: true });
    },
    requestPermission(request, signal) {
      return client.request(methods.client.session.requestPermission, request, { cancellationSignal: signal, stopWaitingOnCancel: true });
    },
  };
}
