import { createHash } from 'node:crypto';

/**
 * Settings of the delivery engine, read from the environment by config.ts (README lists them):
 *
 * - HERALD_BOUNCE_DOMAIN: the platform's bounce domain, the domain of every VERP return path; its
 *   MX must reach Herald's inbound SMTP. Default: HERALD_INBOUND_MX_HOST (`mx.<hostname>`), whose
 *   own A record makes it reachable as an implicit MX with no extra DNS.
 * - HERALD_VERP_SECRET: key of the VERP tag; default derived from the secret key (core.ts).
 * - HERALD_RELAY_URL: a smart host for the whole deployment, for self-hosters whose port 25 is
 *   blocked: `smtp://user:pass@host:587` (STARTTLS when offered; `?starttls=required` to insist),
 *   `smtps://…:465` (TLS from the start); `?insecure=1` skips certificate checks. An account can
 *   set its own smart host in its sender configurations (the `relay` kind), which wins over this
 *   one for its mail.
 * - HERALD_RELAY_ALLOW_PRIVATE: let accounts' own relays be loopback, private or reserved
 *   addresses (tests, or relays inside the deployment's network). Off by default: an account's
 *   relay is the customer's input, and the connection leaves from inside the platform's network.
 * - HERALD_DESTINATION_LIMITS: JSON of per receiving domain limits, e.g.
 *   `{"qq.com":{"connections":5,"messagesPerSecond":20},"*":{"connections":10}}`. A JSON setting
 *   rather than a table: these are operator knobs changed with a deploy, like the MTA port.
 * - HERALD_RETRY_FIRST_MS / HERALD_RETRY_MAX_MS / HERALD_DELIVERY_LIFETIME_MS: retry schedule.
 * - HERALD_DELIVERY_BATCH, HERALD_DELIVERY_LEASE_MS, HERALD_DELIVERY_POLL_MS,
 *   HERALD_DELIVERY_CONCURRENCY, HERALD_SMTP_CLIENT_TIMEOUT_MS: claiming and in-flight limits.
 * - HERALD_DELIVERY_COPY_BUDGET_MB: memory for the recipients' copies in flight in one worker
 *   process (pipeline/copy-budget.ts); the recipients of a large message past it wait their turn.
 */
/** The retry schedule of deferred recipients (mta/outcome/retry-schedule.ts walks it). */
export interface RetryPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  lifetimeMs: number;
}

export interface DestinationLimit {
  /** Connections open at once to the destination's MX. */
  connections: number;
  /** Messages per second to the destination across this worker's connections; 0 = no limit. */
  messagesPerSecond: number;
  /** Messages sent over one connection before it is closed and a fresh one opened. */
  messagesPerConnection: number;
}

export interface RelaySettings {
  host: string;
  port: number;
  /** `starttls`: upgrade when offered (or required); `tls`: implicit TLS. */
  security: 'starttls' | 'tls';
  requireTls: boolean;
  rejectUnauthorized: boolean;
  auth: { user: string; pass: string } | null;
  /** For logs: no password. */
  describe: string;
}

export interface DeliverySettings {
  bounceDomain: string;
  verpSecret: string | undefined;
  relay: RelaySettings | undefined;
  /** Accounts' own relays may resolve to internal addresses (HERALD_RELAY_ALLOW_PRIVATE). */
  relayAllowPrivate: boolean;
  limits: { default: DestinationLimit; domains: Record<string, DestinationLimit> };
  retry: RetryPolicy;
  batchSize: number;
  leaseMs: number;
  pollMs: number;
  concurrency: number;
  /** Bytes of recipients' copies in flight per worker process (HERALD_DELIVERY_COPY_BUDGET_MB). */
  copyBudgetBytes: number;
  timeoutMs: number;
}

export interface DeliveryEnv {
  HERALD_BOUNCE_DOMAIN?: string;
  HERALD_VERP_SECRET?: string;
  HERALD_RELAY_URL?: string;
  HERALD_RELAY_ALLOW_PRIVATE?: string;
  HERALD_DESTINATION_LIMITS?: string;
  HERALD_RETRY_FIRST_MS: number;
  HERALD_RETRY_MAX_MS: number;
  HERALD_DELIVERY_LIFETIME_MS: number;
  HERALD_DELIVERY_BATCH: number;
  HERALD_DELIVERY_LEASE_MS: number;
  HERALD_DELIVERY_POLL_MS: number;
  HERALD_DELIVERY_CONCURRENCY: number;
  HERALD_DELIVERY_COPY_BUDGET_MB: number;
  HERALD_SMTP_CLIENT_TIMEOUT_MS: number;
}

const DEFAULT_LIMIT: DestinationLimit = {
  connections: 10,
  messagesPerSecond: 0,
  messagesPerConnection: 1000,
};

export function deliverySettings(
  e: DeliveryEnv,
  inboundMxHost: string,
  fail: (message: string) => never,
): DeliverySettings {
  return {
    bounceDomain: (e.HERALD_BOUNCE_DOMAIN ?? inboundMxHost).toLowerCase().replace(/\.$/, ''),
    verpSecret: e.HERALD_VERP_SECRET || undefined,
    relay: e.HERALD_RELAY_URL ? parseRelayUrl(e.HERALD_RELAY_URL, fail) : undefined,
    relayAllowPrivate: e.HERALD_RELAY_ALLOW_PRIVATE === '1' || e.HERALD_RELAY_ALLOW_PRIVATE === 'true',
    limits: parseLimits(e.HERALD_DESTINATION_LIMITS, fail),
    retry: {
      firstDelayMs: e.HERALD_RETRY_FIRST_MS,
      maxDelayMs: e.HERALD_RETRY_MAX_MS,
      lifetimeMs: e.HERALD_DELIVERY_LIFETIME_MS,
    },
    batchSize: e.HERALD_DELIVERY_BATCH,
    leaseMs: e.HERALD_DELIVERY_LEASE_MS,
    pollMs: e.HERALD_DELIVERY_POLL_MS,
    concurrency: e.HERALD_DELIVERY_CONCURRENCY,
    copyBudgetBytes: e.HERALD_DELIVERY_COPY_BUDGET_MB * 1024 * 1024,
    timeoutMs: e.HERALD_SMTP_CLIENT_TIMEOUT_MS,
  };
}

/** The VERP key: the configured one, or one derived from the platform's sealing key. */
export function verpSecretOf(settings: DeliverySettings, secretKey: Buffer): string {
  return (
    settings.verpSecret ?? createHash('sha256').update('herald-verp\0').update(secretKey).digest('base64')
  );
}

export function limitFor(settings: DeliverySettings['limits'], domain: string): DestinationLimit {
  return settings.domains[domain.toLowerCase()] ?? settings.default;
}

function parseRelayUrl(value: string, fail: (message: string) => never): RelaySettings {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('HERALD_RELAY_URL: use smtp://user:pass@host:port or smtps://…');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    fail('HERALD_RELAY_URL: the scheme must be smtp:// (STARTTLS) or smtps:// (implicit TLS)');
  }
  if (!url.hostname) fail('HERALD_RELAY_URL: no host');
  const security = url.protocol === 'smtps:' ? 'tls' : 'starttls';
  const port = url.port ? Number(url.port) : security === 'tls' ? 465 : 587;
  const user = decodeURIComponent(url.username);
  const flag = (name: string) =>
    ['1', 'true', 'yes'].includes((url.searchParams.get(name) ?? '').toLowerCase());
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    security,
    requireTls: security === 'tls' || url.searchParams.get('starttls') === 'required',
    rejectUnauthorized: !flag('insecure'),
    auth: user ? { user, pass: decodeURIComponent(url.password) } : null,
    describe: `${url.protocol}//${user ? `${user}@` : ''}${url.hostname}:${port}`,
  };
}

function parseLimits(
  value: string | undefined,
  fail: (message: string) => never,
): DeliverySettings['limits'] {
  const limits = { default: { ...DEFAULT_LIMIT }, domains: {} as Record<string, DestinationLimit> };
  if (!value?.trim()) return limits;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return fail('HERALD_DESTINATION_LIMITS: not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return fail('HERALD_DESTINATION_LIMITS: must be an object of domain → limits');
  }
  const read = (domain: string, raw: unknown, base: DestinationLimit): DestinationLimit => {
    if (typeof raw !== 'object' || raw === null) fail(`HERALD_DESTINATION_LIMITS: ${domain}: not an object`);
    const r = raw as Record<string, unknown>;
    const num = (key: keyof DestinationLimit, min: number): number => {
      const v = r[key];
      if (v === undefined) return base[key];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < min) {
        return fail(`HERALD_DESTINATION_LIMITS: ${domain}.${key} must be a number ≥ ${min}`);
      }
      return v;
    };
    return {
      connections: Math.floor(num('connections', 1)),
      messagesPerSecond: num('messagesPerSecond', 0),
      messagesPerConnection: Math.floor(num('messagesPerConnection', 1)),
    };
  };
  const entries = Object.entries(parsed as Record<string, unknown>);
  const fallback = entries.find(([k]) => k === '*' || k === 'default');
  if (fallback) limits.default = read(fallback[0], fallback[1], DEFAULT_LIMIT);
  for (const [domain, raw] of entries) {
    if (domain === '*' || domain === 'default') continue;
    limits.domains[domain.toLowerCase()] = read(domain, raw, limits.default);
  }
  return limits;
}
