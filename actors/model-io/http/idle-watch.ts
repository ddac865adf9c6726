import type { Clock } from '../../../runtime/clock.js';
import { openHttp } from './http-request.js';

export interface IdleWatchOptions {
  /** 0 = no limit. */
  limitMs: number;
  clock: Clock;
  /** `http://host:port` of the server, for the health check. */
  origin: string;
  headers: Record<string, string>;
  /**
   * Called once when the limit passed without life; `checked`: a health check was asked and gave
   * no life, `status` what it answered when it answered (a 404, say).
   */
  onExpire(checked: boolean, status?: number): void;
  /** Tests: told how each health check ended. */
  onProbe?(alive: boolean): void;
}

/**
 * The idle timeout of one chat request (REIKA_REQUEST_TIMEOUT_MS, "time without life"), which
 * must never cut off a slow prefill yet must end a request to a server that died. Life is any
 * byte of the answer (llama.cpp's `return_progress` chunks during a prefill included) or, after
 * half the limit in silence, a 2xx answer to a health check on a second connection (`GET /health`):
 * a server that is busy reading a 20-minute prompt answers it, a dead one does not. Any other
 * status is no life: a 404 or 405 means the server has no health endpoint (or a proxy answers
 * for an engine behind it that may be dead), so only the stream's bytes can show life.
 * Once the model generates (the prefill is over) only bytes count: a stream silent for the whole
 * limit mid-answer is cut. With no life for the whole limit the request is ended. Timers come
 * from the injected clock, so tests decide what time it is.
 */
export class IdleWatch {
  private cancel: (() => void) | undefined;
  private probe: AbortController | undefined;
  private stopped = false;
  private silentSince = 0;
  private generatingNow = false;
  private healthStatus: number | undefined;

  constructor(private readonly options: IdleWatchOptions) {
    this.alive();
  }

  /** Something arrived: the silence starts again. */
  alive(): void {
    if (this.stopped || this.options.limitMs <= 0) return;
    this.silentSince = this.options.clock.now();
    this.arm(Math.ceil(this.options.limitMs / 2), () => this.check());
  }

  /** The model generates: from now on only bytes count as life (no health checks). */
  generating(): void {
    this.generatingNow = true;
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.probe?.abort();
  }

  private arm(ms: number, fn: () => void): void {
    this.cancel?.();
    this.cancel = this.options.clock.after(ms, fn);
  }

  /** Half the limit went by in silence: ask the server whether it is there, and give it the rest. */
  private check(): void {
    const { clock, limitMs } = this.options;
    const rest = Math.max(0, this.silentSince + limitMs - clock.now());
    const probe = new AbortController();
    this.probe?.abort();
    this.probe = probe;
    const checked = !this.generatingNow;
    this.arm(rest, () => {
      if (this.stopped) return;
      this.stopped = true;
      probe.abort();
      this.options.onExpire(checked, this.healthStatus);
    });
    if (!checked) return;
    openHttp(`${this.options.origin}/health`, { method: 'GET', headers: this.options.headers, signal: probe.signal, idleTimeoutMs: 0 }).then(
      (exchange) => {
        const status = exchange.response.statusCode ?? 0;
        exchange.destroy();
        if (this.stopped || probe.signal.aborted) return;
        const healthy = status >= 200 && status < 300;
        this.healthStatus = healthy ? undefined : status;
        this.options.onProbe?.(healthy);
        if (healthy) this.alive();
      },
      () => {
        if (!this.stopped && !probe.signal.aborted) this.options.onProbe?.(false);
      },
    );
  }
}
