import { ReikaError } from '../../runtime/errors.js';

/*
 * The model-IO failures a user can fix, each one sentence naming the setting to change. Their
 * codes are members of ReikaErrorCode (runtime/errors.ts).
 */

export function serverUnreachable(baseUrl: string, detail?: string, urlVariable = 'REIKA_BASE_URL'): ReikaError {
  return new ReikaError('REIKA_ERR_SERVER_UNREACHABLE', `No model server answers at ${baseUrl}${detail ? ` (${detail})` : ''} — start one or set ${urlVariable}.`, { retryable: true });
}

export function authError(baseUrl: string, status: number, keyVariable = 'REIKA_API_KEY'): ReikaError {
  return new ReikaError('REIKA_ERR_AUTH', `The server at ${baseUrl} refused the API key (HTTP ${status}) — set ${keyVariable}.`);
}

export function modelNotFound(model: string, available: string[] = [], modelVariable = 'REIKA_MODEL'): ReikaError {
  const offer = available.length ? ` The server offers: ${available.slice(0, 10).join(', ')}${available.length > 10 ? ', …' : ''}.` : '';
  return new ReikaError('REIKA_ERR_MODEL_NOT_FOUND', `The server has no model "${model}" — set ${modelVariable}.${offer}`);
}

export function badUrl(url: string, urlVariable = 'REIKA_BASE_URL'): ReikaError {
  return new ReikaError('REIKA_ERR_BAD_URL', `Nothing answers at ${url} (HTTP 404) — check ${urlVariable} (does it end in /v1?).`);
}

export function httpError(status: number, message: string, retryable: boolean): ReikaError {
  return new ReikaError('REIKA_ERR_HTTP', `The model server failed with HTTP ${status}${message ? `: ${oneLine(message)}` : ''}.`, { retryable });
}

export function timeoutError(ms: number): ReikaError {
  return new ReikaError('REIKA_ERR_TIMEOUT', `The model server sent nothing for ${ms} ms — raise REIKA_REQUEST_TIMEOUT_MS (0 waits forever).`);
}

/**
 * A chat request whose server went silent and stopped answering health checks too (see
 * idle-watch.ts): dead, or cut off from this machine. A busy server (a long prefill) answers
 * them and is waited for.
 */
export function deadServerError(baseUrl: string, ms: number, healthStatus?: number): ReikaError {
  const limit = ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
  const silence = healthStatus === undefined ? `nothing on the stream and no answer to a health check for ${limit}` : `nothing on the stream for ${limit}, and GET /health answered ${healthStatus}`;
  return new ReikaError('REIKA_ERR_TIMEOUT', `The model server at ${baseUrl} stopped answering: ${silence} — check that it still runs (REIKA_REQUEST_TIMEOUT_MS sets this limit; 0 waits forever).`);
}

/**
 * A 2xx answer that is neither an event stream nor JSON (an HTML error page from a proxy, plain
 * text, nothing at all), named by its content type and first line (an HTML page's title too).
 */
export function notAStreamError(status: number, contentType: string, body: string, urlVariable = 'REIKA_BASE_URL'): ReikaError {
  const type = contentType.split(';')[0]!.trim() || 'no content type';
  const line = body.split(/\r?\n/).map((text) => text.trim()).find((text) => text !== '');
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
  const said = line === undefined ? 'an empty body' : `${type}: "${clip(line, 120)}"${title && !line.includes(title) ? ` (title "${clip(title, 80)}")` : ''}`;
  return new ReikaError('REIKA_ERR_STREAM', `The model server answered HTTP ${status} with ${line === undefined ? `${said} (${type})` : said}, not an event stream — check ${urlVariable} (a proxy or web page may answer there).`, { retryable: line === undefined });
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function streamError(message: string, retryable: boolean): ReikaError {
  return new ReikaError('REIKA_ERR_STREAM', `The model stream broke: ${oneLine(message)}.`, { retryable });
}

/** Error bodies come as `{error:{message}}`, `{error:"…"}`, `{message}` or `{detail}`; keep one short line. */
export function errorMessageOf(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: string | { message?: unknown }; message?: unknown; detail?: unknown } | null;
    const error = json?.error;
    const message = (typeof error === 'string' ? error : error?.message) ?? json?.message ?? json?.detail;
    if (typeof message === 'string') return oneLine(message);
  } catch {
    // not JSON: fall through to the raw text
  }
  return oneLine(body);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
