import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { AppError, formatMessage } from '@herald/shared';
import type { UrlGuard } from './url-guard.ts';

/** What one POST to a receiver came to. Only HTTP 200 counts as success (reference §9). */
export interface PushResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * Posts form bodies to webhook URLs. Each webhook gets its own keep-alive agent (several pushes
 * queued for one receiver reuse connections instead of a handshake each), capped at the
 * per-webhook concurrency. Connections go to the address the URL guard vetted: the agent's
 * `lookup` is the guard, so every new connection is checked and made in one step; an IP literal
 * needs no look-up and is checked before the request.
 */
export class WebhookClient {
  private readonly guard: UrlGuard;
  private readonly timeoutMs: number;
  private readonly maxSockets: number;
  private readonly agents = new Map<string, http.Agent>();
  private readonly lookup: LookupFunction;

  constructor(options: { guard: UrlGuard; timeoutMs: number; maxSockets: number }) {
    this.guard = options.guard;
    this.timeoutMs = options.timeoutMs;
    this.maxSockets = options.maxSockets;
    this.lookup = (hostname, lookupOptions, callback) => {
      this.guard.resolve(hostname).then(
        ({ address, family }) => {
          if (lookupOptions.all)
            (callback as unknown as (e: null, a: object[]) => void)(null, [{ address, family }]);
          else callback(null, address, family);
        },
        (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
      );
    };
  }

  /**
   * POSTs `body` (form-encoded) to `url`; `key` names the keep-alive agent (the webhook), null
   * makes a one-off connection (the probe on save, a test push). Never throws.
   */
  async post(key: string | null, url: string, body: string): Promise<PushResult> {
    const started = performance.now();
    const done = (status: number | null, error: string | null): PushResult => ({
      ok: status === 200,
      status,
      durationMs: Math.round(performance.now() - started),
      error,
    });
    let target: URL;
    try {
      target = new URL(url);
      if (isIP(target.hostname.replace(/^\[|\]$/g, ''))) await this.guard.resolve(target.hostname);
    } catch (error) {
      return done(null, describe(error));
    }
    const secure = target.protocol === 'https:';
    return new Promise<PushResult>((resolve) => {
      let settled = false;
      const finish = (status: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(status, error));
      };
      const request = (secure ? https : http).request(target, {
        method: 'POST',
        ...(key === null ? { agent: false, lookup: this.lookup } : { agent: this.agentFor(key, target) }),
        headers: {
          'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Herald-Webhook/1.0',
        },
      });
      const timer = setTimeout(() => {
        finish(null, `no answer within ${this.timeoutMs / 1000} s`);
        request.destroy();
      }, this.timeoutMs);
      request.on('response', (response) => {
        response.resume();
        // The status is what counts; the body is drained so the connection can be reused.
        response.on('end', () =>
          finish(
            response.statusCode ?? null,
            response.statusCode === 200 ? null : `HTTP ${response.statusCode}`,
          ),
        );
        response.on('error', (error) => finish(response.statusCode ?? null, describe(error)));
      });
      request.on('error', (error) => finish(null, describe(error)));
      request.end(body);
    });
  }

  /** Drops the agent of a webhook whose URL changed or that was deleted. */
  forget(key: string): void {
    for (const [name, agent] of this.agents) {
      if (name.startsWith(`${key}|`)) {
        agent.destroy();
        this.agents.delete(name);
      }
    }
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private agentFor(key: string, target: URL): http.Agent {
    const name = `${key}|${target.origin}`;
    let agent = this.agents.get(name);
    if (!agent) {
      const options = { keepAlive: true, maxSockets: this.maxSockets, lookup: this.lookup };
      agent = target.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.agents.set(name, agent);
    }
    return agent;
  }
}

function describe(error: unknown): string {
  if (error instanceof AppError) return formatMessage(error.code, 'en', error.params);
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
