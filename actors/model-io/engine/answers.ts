/* eslint-disable @typescript-eslint/no-explicit-any -- engines' JSON answers, read with `?.` and
   checked with `typeof` at every leaf before use. */
import { openHttp, readText } from '../http/http-request.js';

// What the server answered to each GET that discovery and detection make (`/v1/models`,
// `/props`, `/slots`, …), kept for the life of this thread (one start): every consumer —
// discovery at connect, engine detection, a subagent's discovery, `/model`'s list, `doctor` —
// shares one answer per URL, so each endpoint is asked at most once per start. An answer that
// failed because its asker aborted is forgotten (the next asker asks); `forgetAnswers` drops an
// origin's answers when a caller wants fresh ones (after the first reply).

export interface Answer {
  status: number;
  json: any;
  /** The `Server` header. */
  server: string;
}

const answers = new Map<string, Promise<Answer>>();

export interface AskOptions {
  headers: Record<string, string>;
  signal: AbortSignal;
  idleTimeoutMs: number;
  /** Largest body read. */
  maxBytes: number;
}

/** The answer to `GET url`, asked once per start; rejects when the server cannot be reached. */
export function answerOf(url: string, options: AskOptions): Promise<Answer> {
  // Keyed with the credentials too: two profiles with other keys for one server get their own answers.
  const key = `${url}\0${options.headers.authorization ?? ''}`;
  let answer = answers.get(key);
  if (answer) return answer;
  answer = askOnce(url, 'GET', options);
  answers.set(key, answer);
  answer.catch(() => {
    // Forget failures: a later asker (another signal, the server up by then) asks again.
    if (answers.get(key) === answer) answers.delete(key);
  });
  return answer;
}

/** True when `GET url` was answered (or is under way) in this start with these credentials. */
export function hasAnswer(url: string, authorization = ''): boolean {
  return answers.has(`${url}\0${authorization}`);
}

/** Drops the answers of every URL under `origin`, so the next askers ask again. */
export function forgetAnswers(origin: string): void {
  for (const url of answers.keys()) if (url.startsWith(origin)) answers.delete(url);
}

/** One request's answer, its body read as JSON where it is JSON (not kept: POSTs, a GET asked afresh). */
export async function askOnce(url: string, method: 'GET' | 'POST', options: AskOptions & { body?: string }): Promise<Answer> {
  const exchange = await openHttp(url, { method, headers: options.headers, ...(options.body !== undefined ? { body: options.body } : {}), signal: options.signal, idleTimeoutMs: options.idleTimeoutMs });
  try {
    const text = await readText(exchange.response, options.maxBytes);
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: exchange.response.statusCode ?? 0, json, server: String(exchange.response.headers.server ?? '') };
  } finally {
    if (!exchange.response.complete) exchange.destroy();
  }
}
