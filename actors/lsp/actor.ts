import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { pathToFileURL, fileURLToPath } from 'node:url';
import * as lsp from 'vscode-languageserver-protocol/node';
import { defineActor } from '../../runtime/actor.js';
import { valueWithin } from '../../runtime/clock.js';
import type { LspCheck, LspDiagnostic, LspProtocol, LspRequest } from './protocol.js';

// One language server for the session, in a child process of its own (`kind: 'process'`, niced
// like MCP servers by the supervisor): it starts the server (typescript-language-server, pyright,
// gopls, rust-analyzer) in a process group of its own and speaks LSP to it over stdio through
// `vscode-languageserver-protocol`. The server is told reika's pid, so it also ends when this
// process is killed; at shutdown its whole group is killed.
//
// What it keeps per file: the text the server has, and the errors the server last published for
// exactly that text. `sync` brings the server's copy up to date before an edit; `check` sends the
// edited text and waits (at most `waitMs`) for the errors of it: those it did not have before are
// the ones the edit introduced. Errors are compared by code and message, not position (an edit
// moves the lines below it).

export interface LspOptions {
  language: string;
  command: string;
  args: string[];
  root: string;
  /** Sent as `initializationOptions`. */
  initialization?: Record<string, unknown>;
}

interface Doc {
  uri: string;
  version: number;
  text: string;
  /** The errors last published, and the version they were published for. */
  errors?: LspDiagnostic[];
  errorsVersion?: number;
  /** How many times errors were published for it. */
  publishes: number;
  /** A pull of its errors under way, for the version it was asked for. */
  pulling?: { version: number; errors: Promise<LspDiagnostic[] | undefined> };
  /** Called when errors are published for this document. */
  waiters: Set<() => void>;
}

const TERM_GRACE_MS = 500;

let child: ChildProcess | undefined;
let connection: lsp.ProtocolConnection | undefined;
let options: LspOptions;
/** Set once the session is closing: the server's end is expected. */
let closing = false;
const docs = new Map<string, Doc>();
/** The open files known to import each file (by URI), from `sync` requests' `importerOf`. */
const importers = new Map<string, Set<string>>();

export default defineActor<LspProtocol, LspOptions>({
  async setup(context) {
    options = context.options;
    child = spawn(options.command, options.args, { cwd: options.root, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const started = new Promise<void>((resolve, reject) => {
      child!.once('spawn', () => resolve());
      child!.once('error', reject);
    });
    await started;
    niceSession(child.pid);
    child.stderr!.resume();
    child.once('exit', (code, signal) => {
      if (closing) return;
      // The server died: this incarnation cannot answer any more; the supervisor starts another.
      context.leaving();
      setImmediate(() => {
        process.stderr.write(`${options.command} exited (${signal ?? `code ${code}`})\n`);
        process.exit(1);
      });
    });
    connection = lsp.createProtocolConnection(new lsp.StreamMessageReader(child.stdout!), new lsp.StreamMessageWriter(child.stdin!));
    connection.onNotification(lsp.PublishDiagnosticsNotification.type, published);
    // Servers ask for settings and announce progress; a client with nothing to say answers null.
    connection.onRequest(lsp.ConfigurationRequest.type, (params) => params.items.map(() => null));
    connection.onRequest(lsp.RegistrationRequest.type, () => undefined);
    connection.onRequest(lsp.WorkDoneProgressCreateRequest.type, () => undefined);
    connection.onRequest(lsp.ShowMessageRequest.type, () => null);
    connection.onNotification(lsp.LogMessageNotification.type, () => {});
    connection.onNotification(lsp.ShowMessageNotification.type, () => {});
    connection.listen();
    const rootUri = pathToFileURL(options.root).href;
    await connection.sendRequest(lsp.InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'project' }],
      capabilities: {
        textDocument: { publishDiagnostics: { versionSupport: true }, synchronization: { didSave: false, dynamicRegistration: false } },
        workspace: { configuration: true, workspaceFolders: true },
      },
      initializationOptions: options.initialization ?? {},
    });
    void connection.sendNotification(lsp.InitializedNotification.type, {});
  },

  async handle(request: LspRequest): Promise<LspCheck | null> {
    if (request.type === 'sync') {
      prepare(request.path, request.text);
      if (request.importerOf !== undefined) {
        const of = pathToFileURL(request.importerOf).href;
        if (!importers.has(of)) importers.set(of, new Set());
        importers.get(of)!.add(pathToFileURL(request.path).href);
      }
      return null;
    }
    return check(request.path, request.text, request.waitMs, request.fresh === true);
  },

  async dispose() {
    closing = true;
    const server = child;
    if (!server || server.exitCode !== null || server.signalCode !== null) return killGroup('SIGKILL');
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    // Politely first (shutdown, exit), then the whole group: the server and what it started.
    try {
      await Promise.race([connection?.sendRequest(lsp.ShutdownRequest.type).then(() => connection?.sendNotification(lsp.ExitNotification.type)), delay(TERM_GRACE_MS)]);
    } catch {
      // it is going anyway
    }
    killGroup('SIGTERM');
    await Promise.race([exited, delay(TERM_GRACE_MS)]);
    killGroup('SIGKILL');
  },
});

/**
 * Gives the scheduling group of the server's session the nice value this actor runs at. The server
 * is spawned `detached` (a session of its own, so its whole group can be killed), and on Linux with
 * autogroups (the default of most distributions) that session is a scheduling group of its own that
 * shares the CPU with reika's as an equal whatever the nice value of its processes, which then only
 * ranks them against each other. Best effort: without autogroups the processes' own values apply.
 * (MCP servers are left at the group's nice 0 on purpose: see group-stdio-transport.ts.)
 */
function niceSession(pid: number | undefined): void {
  if (process.platform !== 'linux' || pid === undefined) return;
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(getPriority()));
  } catch {
    // no autogroup here, or not permitted: the processes' own nice values apply
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

process.once('exit', () => killGroup('SIGKILL'));

function killGroup(signal: NodeJS.Signals): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Opens the file in the server, or sends it its new text; returns its document. */
function sync(path: string, text: string): Doc {
  const uri = pathToFileURL(path).href;
  let doc = docs.get(uri);
  if (!doc) {
    doc = { uri, version: 1, text, publishes: 0, waiters: new Set() };
    docs.set(uri, doc);
    void connection!.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: languageId(path), version: 1, text } });
  } else if (doc.text !== text) {
    doc.version++;
    doc.text = text;
    void connection!.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri, version: doc.version }, contentChanges: [{ text }] });
  }
  return doc;
}

/** Before an edit: the file is synced and the server starts on its errors now, so they are known by the time the edit is checked. */
function prepare(path: string, text: string): void {
  const doc = sync(path, text);
  if (pulls() && doc.errorsVersion !== doc.version) void startPull(doc);
}

async function check(path: string, text: string, waitMs: number, fresh: boolean): Promise<LspCheck> {
  const deadline = Date.now() + waitMs;
  const uri = pathToFileURL(path).href;
  const doc = docs.get(uri);
  // The errors before: none for a file that did not exist, else the server's for the text of the
  // last sync (waited for within the budget).
  const before = fresh ? [] : doc && doc.text !== text ? await errorsNow(doc, deadline) : undefined;
  // The open files importing it, with their errors before the change where known: the server
  // checks them again after it, and what they gain is the change's doing too.
  const others = [...(importers.get(uri) ?? [])].flatMap((importer) => (importer !== uri && docs.has(importer) ? [docs.get(importer)!] : []));
  const othersBefore = await Promise.all(others.map((other) => (pulls() ? errorsNow(other, deadline) : Promise.resolve(other.errorsVersion === other.version ? (other.errors ?? []) : undefined))));
  const publishes = others.map((other) => other.publishes);
  const target = sync(path, text);
  // What the server said of the others was for the project before the change.
  if (pulls()) {
    for (const other of others) {
      other.errorsVersion = undefined;
      other.pulling = undefined;
    }
  }
  const after = await errorsNow(target, deadline);
  if (after === undefined) return { introduced: [], state: 'late' };
  if (before === undefined) return { introduced: [], state: 'unknown-before' };
  const introduced = newErrors(before, after);
  for (let i = 0; i < others.length; i++) {
    const other = others[i]!;
    const was = othersBefore[i];
    if (was === undefined) continue;
    if (pulls()) {
      const now = await errorsNow(other, deadline);
      if (now) introduced.push(...newErrors(was, now));
    } else {
      // Servers that push send every open file's errors again after a change.
      await until(other, () => other.publishes > publishes[i]!, deadline);
      if (other.publishes > publishes[i]! && other.errorsVersion === other.version) introduced.push(...newErrors(was, other.errors ?? []));
    }
  }
  return { introduced, state: 'checked' };
}

/**
 * The server's errors for `doc` as it is now, or undefined when it did not say by `deadline`.
 * typescript-language-server is asked (tsserver's diagnostics, through its `typescript.tsserverRequest`
 * command): its pushed diagnostics carry no version and skip repeats, so a push cannot say which
 * text it is about. Other servers push with versions, and are waited for.
 */
function errorsNow(doc: Doc, deadline: number): Promise<LspDiagnostic[] | undefined> {
  if (doc.errorsVersion === doc.version) return Promise.resolve(doc.errors ?? []);
  if (!pulls()) return until(doc, () => doc.errorsVersion === doc.version, deadline).then(() => (doc.errorsVersion === doc.version ? (doc.errors ?? []) : undefined));
  return valueWithin(startPull(doc), deadline - Date.now());
}

/** Asks the server for `doc`'s errors at its current version, unless that is asked already. */
function startPull(doc: Doc): Promise<LspDiagnostic[] | undefined> {
  if (doc.pulling?.version !== doc.version) {
    const version = doc.version;
    const pulling: NonNullable<Doc['pulling']> = { version, errors: Promise.resolve(undefined) };
    // An answer counts only while it is still the pull of record (a change of another file drops it).
    pulling.errors = pullErrors(doc).then((found) => {
      if (doc.pulling !== pulling || doc.version !== version) return undefined;
      if (found) {
        doc.errors = found;
        doc.errorsVersion = version;
      }
      return found;
    });
    doc.pulling = pulling;
  }
  return doc.pulling.errors;
}

/** tsserver's syntactic and semantic errors of one open file. */
async function pullErrors(doc: Doc): Promise<LspDiagnostic[] | undefined> {
  const file = fileURLToPath(doc.uri);
  try {
    const answers = await Promise.all(
      ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync'].map((command) => connection!.sendRequest(lsp.ExecuteCommandRequest.type, { command: 'typescript.tsserverRequest', arguments: [command, { file }] })),
    );
    const errors: LspDiagnostic[] = [];
    for (const answer of answers as TsserverAnswer[]) {
      if (!answer?.success || !Array.isArray(answer.body)) return undefined;
      for (const found of answer.body) {
        if (found.category !== 'error') continue;
        errors.push({ path: file, line: found.start.line, column: found.start.offset, message: found.text.replace(/\s+/g, ' ').trim(), code: `TS${found.code}` });
      }
    }
    return errors;
  } catch {
    return undefined;
  }
}

/** What tsserver answers a `*DiagnosticsSync` request with. */
interface TsserverAnswer {
  success?: boolean;
  body?: { start: { line: number; offset: number }; text: string; code: number; category: string }[];
}

/** The servers whose errors are asked for rather than waited for. */
function pulls(): boolean {
  return options.language === 'typescript';
}

/** The errors of `after` that `before` did not have (by code and message, each counted). */
function newErrors(before: readonly LspDiagnostic[], after: readonly LspDiagnostic[]): LspDiagnostic[] {
  const counts = new Map<string, number>();
  const key = (d: LspDiagnostic) => `${d.code ?? ''}\0${d.message}`;
  for (const d of before) counts.set(key(d), (counts.get(key(d)) ?? 0) + 1);
  const out: LspDiagnostic[] = [];
  for (const d of after) {
    const left = counts.get(key(d)) ?? 0;
    if (left > 0) counts.set(key(d), left - 1);
    else out.push(d);
  }
  return out;
}

function published(params: lsp.PublishDiagnosticsParams): void {
  const doc = docs.get(params.uri);
  if (!doc || pulls()) return;
  // A server that says which version it checked is believed; one that does not checked the latest.
  const version = params.version ?? doc.version;
  if (version !== doc.version) return;
  const path = fileURLToPath(params.uri);
  doc.errors = params.diagnostics
    .filter((d) => (d.severity ?? lsp.DiagnosticSeverity.Error) === lsp.DiagnosticSeverity.Error)
    .map((d) => ({
      path,
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      message: (typeof d.message === 'string' ? d.message : d.message.value).replace(/\s+/g, ' ').trim(),
      ...(d.code !== undefined ? { code: typeof d.code === 'number' && options.language === 'typescript' ? `TS${d.code}` : String(d.code) } : {}),
    }));
  doc.errorsVersion = version;
  doc.publishes++;
  for (const waiter of doc.waiters) waiter();
}

/** Resolves when `ready()` holds after a publish for `doc`, or at `deadline`. */
function until(doc: Doc, ready: () => boolean, deadline: number): Promise<void> {
  if (ready()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      doc.waiters.delete(check);
      resolve();
    };
    const check = () => {
      if (ready()) done();
    };
    const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
    doc.waiters.add(check);
  });
}

function languageId(path: string): string {
  if (/\.(ts|mts|cts)$/.test(path)) return 'typescript';
  if (path.endsWith('.tsx')) return 'typescriptreact';
  if (path.endsWith('.jsx')) return 'javascriptreact';
  if (/\.(js|mjs|cjs)$/.test(path)) return 'javascript';
  if (/\.pyi?$/.test(path)) return 'python';
  if (path.endsWith('.go')) return 'go';
  if (path.endsWith('.rs')) return 'rust';
  return 'plaintext';
}
