import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseIpEntry } from '@herald/shared';
import { z } from 'zod';
import { type DeliverySettings, deliverySettings } from './delivery-settings.ts';

/**
 * Every setting Herald reads, from the environment. The README's configuration table lists
 * the same names and defaults; keep the two together.
 */
export const ROLES = ['api', 'worker', 'smtp', 'gateway'] as const;
export type Role = (typeof ROLES)[number];

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
/** A listener that is off when unset or empty; 0 takes a free port. */
const optionalPort = z.preprocess((v) => (v === '' ? undefined : v), port.optional());

const envSchema = z.object({
  HERALD_ROLE: z.string().default('all'),
  HERALD_DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  HERALD_HTTP_HOST: z.string().default('0.0.0.0'),
  HERALD_HTTP_PORT: port.default(8080),
  HERALD_TRUSTED_PROXIES: z.string().optional(),
  HERALD_SMTP_HOST: z.string().default('0.0.0.0'),
  HERALD_SMTP_PORT: port.default(2525),
  HERALD_INBOUND_SMTP_PORT: port.default(2526),
  HERALD_SMTP_STARTTLS_PORT: port.default(587),
  HERALD_SMTP_TLS_PORT: port.default(465),
  HERALD_SMTP_TLS_CERT: z.string().optional(),
  HERALD_SMTP_TLS_KEY: z.string().optional(),
  HERALD_SMTP_MAX_BYTES: positiveInt.default(16_000_000),
  HERALD_SMTP_MAX_CONNECTIONS: positiveInt.default(1000),
  HERALD_SMTP_MAX_CONNECTIONS_PER_IP: positiveInt.default(50),
  HERALD_SMTP_IDLE_TIMEOUT_MS: positiveInt.default(60_000),
  HERALD_SMTP_SESSION_MAX_MS: positiveInt.default(15 * 60_000),
  HERALD_SMTP_TRUSTED_NETWORKS: z.string().optional(),
  HERALD_SMTP_TRUSTED_API_USER: z.string().optional(),
  HERALD_CONSOLE_DIR: z.string().optional(),
  HERALD_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HERALD_DNS_SERVERS: z.string().optional(),
  HERALD_SMS_OPT_OUT_WORDS: z.string().optional(),
  HERALD_MTA_PORT: port.default(25),
  HERALD_SYSTEM_FROM: z.string().regex(/@/, 'needs an address: Herald <no-reply@example.com>').optional(),
  HERALD_SMPP_URL: z
    .string()
    .regex(
      /^((smpp|cmpp):\/\/[^/:\s?]+(:\d+)?\/?(\?\S*)?)?$/,
      'use smpp://host:port or cmpp://host:port?version=3.0',
    )
    .optional(),
  HERALD_SMPP_SYSTEM_ID: z.string().default(''),
  HERALD_SMPP_PASSWORD: z.string().default(''),
  HERALD_SMS_SOURCE: z.string().min(1).default('Herald'),
  HERALD_GATEWAY_HOST: z.string().default('0.0.0.0'),
  HERALD_CMPP_PORT: optionalPort,
  HERALD_SMPP_PORT: optionalPort,
  HERALD_WORKER_CONCURRENCY: positiveInt.default(4),
  HERALD_SHUTDOWN_TIMEOUT_MS: positiveInt.default(30_000),
  HERALD_QUEUE_LEASE_MS: positiveInt.default(30_000),
  HERALD_QUEUE_PREFIX: z.string().default('herald'),
  HERALD_QUEUE_PAUSE_MAX_DAYS: positiveInt.default(7),
  HERALD_HOSTNAME: z.string().optional(),
  HERALD_ALLOW_IP_HOSTNAME: z.enum(['0', '1', 'true', 'false']).default('0'),
  HERALD_PUBLIC_URL: z.url().optional(),
  HERALD_SPF_DOMAIN: z.string().optional(),
  HERALD_MAILLIST_DOMAIN: z.string().optional(),
  HERALD_INBOUND_MX_HOST: z.string().optional(),
  HERALD_BOUNCE_DOMAIN: z.string().optional(),
  HERALD_VERP_SECRET: z.string().optional(),
  HERALD_RELAY_URL: z.string().optional(),
  HERALD_RELAY_ALLOW_PRIVATE: z.enum(['0', '1', 'true', 'false']).default('0'),
  HERALD_DESTINATION_LIMITS: z.string().optional(),
  HERALD_RETRY_FIRST_MS: positiveInt.default(60_000),
  HERALD_RETRY_MAX_MS: positiveInt.default(2 * 60 * 60_000),
  HERALD_DELIVERY_LIFETIME_MS: positiveInt.default(72 * 60 * 60_000),
  HERALD_DELIVERY_BATCH: positiveInt.default(200),
  HERALD_DELIVERY_LEASE_MS: positiveInt.default(60_000),
  HERALD_DELIVERY_POLL_MS: positiveInt.default(200),
  HERALD_DELIVERY_CONCURRENCY: positiveInt.default(400),
  HERALD_DELIVERY_COPY_BUDGET_MB: positiveInt.default(256),
  HERALD_SMTP_CLIENT_TIMEOUT_MS: positiveInt.default(120_000),
  HERALD_ADMIN_PASSWORD: z.string().min(8).optional(),
  HERALD_ADMIN_EMAIL: z.string().default('admin@localhost'),
  HERALD_SECRET_KEY: z.string().optional(),
  HERALD_WECHAT_BASE_URL: z.url().optional(),
  HERALD_WECHAT_APP_ID: z.string().optional(),
  HERALD_WECHAT_APP_SECRET: z.string().optional(),
  HERALD_WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1', 'true', 'false']).default('0'),
  HERALD_WEBHOOK_RETRY_BASE_MS: positiveInt.default(60_000),
  HERALD_WEBHOOK_POLL_MS: positiveInt.default(200),
  HERALD_WEBHOOK_CONCURRENCY: positiveInt.default(32),
  HERALD_TRACKING_URL: z.url().optional(),
  HERALD_SMS_SHORT_LINK_URL: z.url().optional(),
  HERALD_SMS_POLL_MS: positiveInt.default(200),
  HERALD_TRACKING_CNAME: z.string().optional(),
  HERALD_TRACKING_HTTPS_PORT: port.optional(),
});

export interface Config {
  roles: Set<Role>;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  redisUrl: string | undefined;
  http: {
    host: string;
    port: number;
    /**
     * Proxies whose X-Forwarded-For is believed (addresses or CIDRs); the client is the right-most
     * address not in the list. Empty: the socket's peer is the client, forwarded headers ignored.
     */
    trustedProxies: string[];
  };
  smtp: {
    host: string;
    submissionPort: number;
    inboundPort: number;
    /** Submission with STARTTLS (587) and implicit TLS (465): listened on only when tls is set. */
    starttlsPort: number;
    tlsPort: number;
    /** PEM files of the submission certificate; STARTTLS is offered on every port when set. */
    tls: { certFile: string; keyFile: string } | undefined;
    /** Largest message SMTP submission takes (advertised with SIZE). */
    maxBytes: number;
    /** Connections each SMTP listener holds at once, in total and per client address. */
    maxConnections: number;
    maxConnectionsPerIp: number;
    /** A connection silent this long is closed; one open this long is closed whatever it does. */
    idleTimeoutMs: number;
    sessionMaxMs: number;
    /** Relays on trusted networks (e.g. the same host) may submit without AUTH, as this API_USER. */
    trusted: { networks: string[]; apiUser: string } | undefined;
  };
  consoleDir: string;
  logLevel: z.infer<typeof envSchema>['HERALD_LOG_LEVEL'];
  dnsServers: string[];
  /** Reply words that unsubscribe a number, beyond T, R, TD and 退订. */
  smsOptOutWords: string[];
  /** Port of recipients' MX hosts the MTA connects to (25; tests point it at a loopback peer). */
  mtaPort: number;
  /** From of Herald's own mail (activation, password reset). */
  systemFrom: string;
  /** The SMS carrier's SMSC; undefined when none is configured (system SMS are then refused). */
  smpp: { url: string; systemId: string; password: string } | undefined;
  /** Sender id of Herald's own SMS. */
  smsSource: string;
  /**
   * The gateway for customers' own systems (role `gateway`): a CMPP listener and an SMPP
   * listener; each is off when its port is unset, and takes a free port when it is 0.
   */
  gateway: { host: string; cmppPort: number | undefined; smppPort: number | undefined };
  workerConcurrency: number;
  shutdownTimeoutMs: number;
  queueLeaseMs: number;
  queuePrefix: string;
  /** Days after which a queue pause without a recover time is deleted (product-spec §4). */
  queuePauseMaxDays: number;
  hostname: string | undefined;
  /** Base of links in mails (activation, reset, invitations), without a trailing slash. */
  publicUrl: string;
  /**
   * What customers' sending domains publish: an SPF include of `spfDomain` and an MX to
   * `inboundMxHost` (for bounces). Both default to names under HERALD_HOSTNAME (or the public
   * URL's host); names under these are the platform's own and cannot be added as sending domains.
   * Null when there is no real DNS name to put them under (no HERALD_HOSTNAME and a public URL on
   * an IP address or localhost): Herald then shows a placeholder and says what to set rather
   * than ask customers to publish `include:spf.127.0.0.1`.
   */
  sendingDomains: { spfDomain: string | null; inboundMxHost: string | null; reserved: string[] };
  /** The delivery engine: bounce domain, relay, per-destination limits, retries (delivery-settings.ts). */
  delivery: DeliverySettings;
  /** The platform operator created on the first start of an empty database. */
  operator: { password?: string; email: string };
  /**
   * Key that seals secrets at rest (TOTP secrets, DKIM keys): 32 bytes from HERALD_SECRET_KEY, or
   * undefined to use `<dataDir>/secret.key`, created on first start (embedded database only).
   */
  secretKey: Buffer | undefined;
  /**
   * WeChat website-app login ("QR connect"); undefined unless both app id and secret are set.
   * One base URL serves both the authorize page and the API when given (a test or a proxy);
   * otherwise WeChat's two hosts. The secret must never reach a log.
   */
  wechat: { appId: string; appSecret: string; authorizeBase: string; apiBase: string } | undefined;
  /**
   * Open and click tracking: `url` is the base of pixel and link URLs when the account has no
   * verified default tracking domain (default: the public URL); custom tracking domains CNAME to
   * `cnameTarget` (default: the tracking URL's host); `httpsPort` is the HTTPS listener serving
   * tracking hosts with their uploaded certificates (none when unset).
   */
  tracking: { url: string; cnameTarget: string; httpsPort: number | undefined };
  /** Base of SMS short links (`<base>/<code>`); its host must reach Herald's HTTP port. */
  smsShortLinkUrl: string;
  /**
   * How often an idle worker looks for due SMS (HERALD_SMS_POLL_MS). Its own setting: a deployment
   * that polls for mail every few milliseconds need not do the same for a channel it barely uses.
   */
  smsPollMs: number;
  /** The domain of address lists' aliases (`<prefix>@<domain>`): HERALD_MAILLIST_DOMAIN, else `maillist.<platform name>`. */
  mailListDomain: string;
  /**
   * Webhook pushes: `allowPrivate` lets URLs resolve to loopback and private addresses (tests, or
   * receivers inside the deployment's own network); retries wait retryBaseMs × 1, 2, 4, 8, 16;
   * `concurrency` is the pushes in flight per webhook.
   */
  webhooks: { allowPrivate: boolean; retryBaseMs: number; pollMs: number; concurrency: number };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseRoles(value: string): Set<Role> {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const roles = new Set<Role>();
  for (const name of names) {
    if (name === 'all') {
      for (const role of ROLES) roles.add(role);
    } else if ((ROLES as readonly string[]).includes(name)) {
      roles.add(name as Role);
    } else {
      throw new ConfigError(`HERALD_ROLE: unknown role "${name}" (use all, ${ROLES.join(', ')})`);
    }
  }
  if (roles.size === 0) throw new ConfigError('HERALD_ROLE: no role given');
  return roles;
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  argv: string[] = process.argv.slice(2),
): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const roleArg = argv.find((arg) => arg.startsWith('--role='))?.slice('--role='.length);
  const dataDir = path.resolve(e.HERALD_DATA_DIR);
  const database = parseDatabaseUrl(e.DATABASE_URL, dataDir);
  const roles = parseRoles(roleArg ?? e.HERALD_ROLE);
  checkHeloName(roles, e);
  const domains = sendingDomainSettings(e);
  return {
    roles,
    dataDir,
    database,
    redisUrl: e.REDIS_URL || undefined,
    http: {
      host: e.HERALD_HTTP_HOST,
      port: e.HERALD_HTTP_PORT,
      trustedProxies: addressList('HERALD_TRUSTED_PROXIES', e.HERALD_TRUSTED_PROXIES),
    },
    smtp: {
      host: e.HERALD_SMTP_HOST,
      submissionPort: e.HERALD_SMTP_PORT,
      inboundPort: e.HERALD_INBOUND_SMTP_PORT,
      starttlsPort: e.HERALD_SMTP_STARTTLS_PORT,
      tlsPort: e.HERALD_SMTP_TLS_PORT,
      tls: smtpTls(e.HERALD_SMTP_TLS_CERT, e.HERALD_SMTP_TLS_KEY),
      maxBytes: e.HERALD_SMTP_MAX_BYTES,
      maxConnections: e.HERALD_SMTP_MAX_CONNECTIONS,
      maxConnectionsPerIp: e.HERALD_SMTP_MAX_CONNECTIONS_PER_IP,
      idleTimeoutMs: e.HERALD_SMTP_IDLE_TIMEOUT_MS,
      sessionMaxMs: e.HERALD_SMTP_SESSION_MAX_MS,
      trusted: smtpTrusted(e.HERALD_SMTP_TRUSTED_NETWORKS, e.HERALD_SMTP_TRUSTED_API_USER),
    },
    consoleDir: path.resolve(e.HERALD_CONSOLE_DIR ?? path.join(import.meta.dirname, '../../console/dist')),
    logLevel: e.HERALD_LOG_LEVEL,
    dnsServers: (e.HERALD_DNS_SERVERS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    smsOptOutWords: (e.HERALD_SMS_OPT_OUT_WORDS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    workerConcurrency: e.HERALD_WORKER_CONCURRENCY,
    shutdownTimeoutMs: e.HERALD_SHUTDOWN_TIMEOUT_MS,
    queueLeaseMs: e.HERALD_QUEUE_LEASE_MS,
    queuePrefix: e.HERALD_QUEUE_PREFIX,
    queuePauseMaxDays: e.HERALD_QUEUE_PAUSE_MAX_DAYS,
    hostname: e.HERALD_HOSTNAME,
    mtaPort: e.HERALD_MTA_PORT,
    systemFrom: e.HERALD_SYSTEM_FROM ?? `Herald <no-reply@${e.HERALD_HOSTNAME ?? os.hostname()}>`,
    smpp: e.HERALD_SMPP_URL
      ? { url: e.HERALD_SMPP_URL, systemId: e.HERALD_SMPP_SYSTEM_ID, password: e.HERALD_SMPP_PASSWORD }
      : undefined,
    smsSource: e.HERALD_SMS_SOURCE,
    gateway: { host: e.HERALD_GATEWAY_HOST, cmppPort: e.HERALD_CMPP_PORT, smppPort: e.HERALD_SMPP_PORT },
    publicUrl: (e.HERALD_PUBLIC_URL ?? `http://localhost:${e.HERALD_HTTP_PORT}`).replace(/\/$/, ''),
    operator: { password: e.HERALD_ADMIN_PASSWORD, email: e.HERALD_ADMIN_EMAIL },
    sendingDomains: domains,
    delivery: deliverySettings(e, domains.inboundMxHost ?? `mx.${platformBase(e)}`, (message) => {
      throw new ConfigError(message);
    }),
    secretKey: parseSecretKey(e.HERALD_SECRET_KEY, database),
    tracking: trackingSettings(e),
    smsShortLinkUrl: (e.HERALD_SMS_SHORT_LINK_URL ?? `${trackingSettings(e).url}/s`).replace(/\/$/, ''),
    smsPollMs: e.HERALD_SMS_POLL_MS,
    mailListDomain: (e.HERALD_MAILLIST_DOMAIN ?? `maillist.${platformBase(e)}`)
      .toLowerCase()
      .replace(/\.$/, ''),
    webhooks: {
      allowPrivate: e.HERALD_WEBHOOK_ALLOW_PRIVATE === '1' || e.HERALD_WEBHOOK_ALLOW_PRIVATE === 'true',
      retryBaseMs: e.HERALD_WEBHOOK_RETRY_BASE_MS,
      pollMs: e.HERALD_WEBHOOK_POLL_MS,
      concurrency: e.HERALD_WEBHOOK_CONCURRENCY,
    },
    wechat:
      e.HERALD_WECHAT_APP_ID && e.HERALD_WECHAT_APP_SECRET
        ? {
            appId: e.HERALD_WECHAT_APP_ID,
            appSecret: e.HERALD_WECHAT_APP_SECRET,
            authorizeBase: (e.HERALD_WECHAT_BASE_URL ?? 'https://open.weixin.qq.com').replace(/\/$/, ''),
            apiBase: (e.HERALD_WECHAT_BASE_URL ?? 'https://api.weixin.qq.com').replace(/\/$/, ''),
          }
        : undefined,
  };
}

function platformBase(e: z.infer<typeof envSchema>): string {
  return (e.HERALD_HOSTNAME ?? hostOf(e.HERALD_PUBLIC_URL) ?? 'localhost').toLowerCase().replace(/\.$/, '');
}

/**
 * A name other machines can look up: not an IP literal, not localhost, at least two labels.
 * `spf.127.0.0.1` or `mx.localhost` would be published by nobody.
 */
export function isPublicDnsName(name: string): boolean {
  const bare = name.replace(/^\[|\]$/g, '');
  if (net.isIP(bare) || /(^|\.)localhost$/i.test(name)) return false;
  return /^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/i.test(name);
}

function sendingDomainSettings(e: z.infer<typeof envSchema>): Config['sendingDomains'] {
  const base = platformBase(e);
  const real = isPublicDnsName(base);
  const spfDomain = e.HERALD_SPF_DOMAIN
    ? e.HERALD_SPF_DOMAIN.toLowerCase().replace(/\.$/, '')
    : real
      ? `spf.${base}`
      : null;
  const inboundMxHost = e.HERALD_INBOUND_MX_HOST
    ? e.HERALD_INBOUND_MX_HOST.toLowerCase().replace(/\.$/, '')
    : real
      ? `mx.${base}`
      : null;
  const names = [base, spfDomain, inboundMxHost].filter((n): n is string => n !== null);
  return { spfDomain, inboundMxHost, reserved: [...new Set(names)] };
}

/**
 * The worker says its name in EHLO to every MX it delivers to; an IP literal there (HERALD_HOSTNAME
 * unset on a machine whose hostname is an address, or set to one) is a name receivers distrust
 * and cannot check against the sending IP's PTR. A worker refuses it unless HERALD_ALLOW_IP_HOSTNAME
 * says the operator means it (a private relay that does not care, a test bed).
 */
function checkHeloName(roles: Set<Role>, e: z.infer<typeof envSchema>): void {
  if (!roles.has('worker')) return;
  if (e.HERALD_ALLOW_IP_HOSTNAME === '1' || e.HERALD_ALLOW_IP_HOSTNAME === 'true') return;
  const name = e.HERALD_HOSTNAME ?? os.hostname();
  if (net.isIP(name.replace(/^\[|\]$/g, ''))) {
    throw new ConfigError(
      `HERALD_HOSTNAME: the worker would greet receiving mail servers as "${name}", an IP address. Set HERALD_HOSTNAME to this machine's DNS name (the one its sending IP's PTR record names), or set HERALD_ALLOW_IP_HOSTNAME=1 to run with an IP literal anyway`,
    );
  }
}

function trackingSettings(e: z.infer<typeof envSchema>): Config['tracking'] {
  const url = (
    e.HERALD_TRACKING_URL ??
    e.HERALD_PUBLIC_URL ??
    `http://localhost:${e.HERALD_HTTP_PORT}`
  ).replace(/\/$/, '');
  const cnameTarget = (e.HERALD_TRACKING_CNAME ?? hostOf(url) ?? 'localhost')
    .toLowerCase()
    .replace(/\.$/, '');
  return { url, cnameTarget, httpsPort: e.HERALD_TRACKING_HTTPS_PORT };
}

function hostOf(url: string | undefined): string | undefined {
  return url ? new URL(url).hostname : undefined;
}

/**
 * The sealing key. On PostgreSQL several processes, usually on several machines, must open what
 * any of them sealed, so a key file generated by one machine will not do: the key must be given.
 */
function parseSecretKey(value: string | undefined, database: Config['database']): Buffer | undefined {
  if (!value) {
    if (database.kind === 'postgres') {
      throw new ConfigError(
        'HERALD_SECRET_KEY is required with PostgreSQL: every Herald process must seal and open secrets with the same key. Generate one with `openssl rand -base64 32` and give it to every process',
      );
    }
    return undefined;
  }
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== 32 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(value.trim())) {
    throw new ConfigError('HERALD_SECRET_KEY: must be 32 random bytes in base64 (`openssl rand -base64 32`)');
  }
  return key;
}

function smtpTls(cert: string | undefined, key: string | undefined): Config['smtp']['tls'] {
  if (!cert && !key) return undefined;
  if (!cert || !key) throw new ConfigError('HERALD_SMTP_TLS_CERT and HERALD_SMTP_TLS_KEY go together');
  return { certFile: path.resolve(cert), keyFile: path.resolve(key) };
}

/** A comma-separated list of IP addresses and CIDR ranges (IPv4 or IPv6). */
function addressList(name: string, value: string | undefined): string[] {
  const list = (value ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  for (const entry of list) {
    // The whitelist's parser, without its a-b ranges (the proxy check takes addresses and CIDRs).
    if (entry.includes('-') || parseIpEntry(entry) === null) {
      throw new ConfigError(
        `${name}: "${entry}" is not an IP address or CIDR range (example: 10.0.0.0/8,::1)`,
      );
    }
  }
  return list;
}

function smtpTrusted(networks: string | undefined, apiUser: string | undefined): Config['smtp']['trusted'] {
  const list = (networks ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (list.length === 0 && !apiUser) return undefined;
  if (list.length === 0 || !apiUser) {
    throw new ConfigError('HERALD_SMTP_TRUSTED_NETWORKS and HERALD_SMTP_TRUSTED_API_USER go together');
  }
  return { networks: list, apiUser };
}

function parseDatabaseUrl(url: string | undefined, dataDir: string): Config['database'] {
  if (!url) return { kind: 'sqlite', file: path.join(dataDir, 'herald.db') };
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { kind: 'postgres', url };
  if (url.startsWith('sqlite:')) return { kind: 'sqlite', file: path.resolve(url.slice('sqlite:'.length)) };
  throw new ConfigError(
    'DATABASE_URL: use postgres://… or sqlite:<file> (or leave it unset for the embedded default)',
  );
}
