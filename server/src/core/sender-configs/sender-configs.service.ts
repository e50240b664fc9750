import type { SenderConfigEntry, SenderConfigView } from '@herald/shared';
import {
  type AdPosition,
  ALL_RECEIVING_DOMAINS,
  AppError,
  type NoDisturbInput,
  parseIp,
  SENDER_CONFIG_INPUTS,
  SENDER_CONFIG_KINDS,
  SENDER_CONFIG_LIST_KINDS,
  SENDER_CONFIG_MAX_ENTRIES,
  type SenderConfigKind,
  type SenderRelayInput,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { isRefusedAddress } from '../../lib/internal-addresses.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { AccountRelay } from '../../mta/ports.ts';
import type { Caller } from '../context.ts';
import { DEFAULT_TIME_ZONE, type NoDisturbWindow } from './no-disturb.ts';
import * as repo from './sender-configs.repo.ts';

/** What the delivery pipeline reads, with each kind's switch already applied. */
export interface SenderSnapshot {
  fromPrefixes: ReadonlyMap<string, string>;
  mailFromDomain: string | null;
  adMark: { position: AdPosition; text: string } | null;
  tlsDomains: readonly string[];
  noDisturb: readonly NoDisturbWindow[];
  skipsInterception: boolean;
  bounce: { forward: boolean; address: string | null };
  timeZone: string;
  /** The account's own smart host, its password opened; null when none is set or it is off. */
  relay: AccountRelay | null;
}

/** A relay entry as stored: the input without its password, which is sealed. */
type StoredRelay = Omit<SenderRelayInput, 'password'> & { passwordSealed?: string };

const LIST_KINDS: ReadonlySet<string> = new Set(SENDER_CONFIG_LIST_KINDS);
/** Kinds that are on until switched off; `intercept` is only a switch and starts off. */
const OFF_BY_DEFAULT: ReadonlySet<string> = new Set(['intercept']);

/** What makes an entry unique within its kind. */
function keyOf(kind: SenderConfigKind, settings: Record<string, unknown>): string {
  switch (kind) {
    case 'from':
      return String(settings.receiveDomain);
    case 'tls':
      return String(settings.domain);
    case 'nodisturb': {
      const w = settings as NoDisturbInput;
      return `${w.cycle}:${w.days.join(',')}:${w.start}-${w.end}`;
    }
    default:
      return '';
  }
}

function describe(kind: SenderConfigKind, settings: Record<string, unknown>): string {
  if (kind === 'nodisturb') {
    const w = settings as NoDisturbInput;
    return `${w.cycle}${w.days.length ? ` ${w.days.join(',')}` : ''} ${w.start}-${w.end}`;
  }
  return keyOf(kind, settings) || kind;
}

/** An entry as the console sees it; a relay's sealed password never leaves, only whether one is set. */
const view = (row: repo.EntryRow): SenderConfigEntry => {
  const { passwordSealed, ...settings } = JSON.parse(row.settings) as Record<string, unknown>;
  return {
    id: Number(row.id),
    ...settings,
    ...(row.kind === 'relay' ? { hasPassword: typeof passwordSealed === 'string' } : {}),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
};

const relayContext = (accountId: number) => `sender-relay:${accountId}`;

/**
 * Sender configurations (`/sendConfig/*`): fixed from per receiving domain, fixed mail_from, AD
 * mark, TLS receiver domains, do-not-disturb windows, send without interception, bounce settings,
 * and the on/off state of each. List kinds (from, tls, nodisturb) hold many entries; the others
 * one, which a save replaces. The pipeline reads `snapshot()`, cached per account for `ttlMs`
 * and dropped in this process on every change (other processes see a change within the TTL).
 */
export class SenderConfigsService {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly timeZone: string;
  private readonly secretBox: SecretBox | undefined;
  private readonly relayAllowPrivate: boolean;
  private readonly cache = new Map<number, { at: number; value: Promise<SenderSnapshot> }>();

  /**
   * `secretBox` seals relay passwords (required to save or use one); `relayAllowPrivate` lets a
   * relay be an internal address (HERALD_RELAY_ALLOW_PRIVATE).
   */
  constructor(
    database: Database,
    options: {
      now?: () => number;
      ttlMs?: number;
      timeZone?: string;
      secretBox?: SecretBox;
      relayAllowPrivate?: boolean;
    } = {},
  ) {
    this.database = database;
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? 5000;
    this.timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
    this.secretBox = options.secretBox;
    this.relayAllowPrivate = options.relayAllowPrivate ?? false;
  }

  async get({ accountId }: Caller, kind: SenderConfigKind): Promise<SenderConfigView> {
    const [entries, switches] = await Promise.all([
      repo.listEntries(this.database, accountId),
      this.switches({ accountId }),
    ]);
    return { kind, enabled: switches[kind], entries: entries.filter((e) => e.kind === kind).map(view) };
  }

  /** The on/off state of every kind (`/sendConfig/status`). */
  async switches({ accountId }: Caller): Promise<Record<SenderConfigKind, boolean>> {
    const rows = await repo.listSwitches(this.database, accountId);
    const set = new Map(rows.map((r) => [r.kind, Number(r.enabled) === 1]));
    return Object.fromEntries(
      SENDER_CONFIG_KINDS.map((kind) => [kind, set.get(kind) ?? !OFF_BY_DEFAULT.has(kind)]),
    ) as Record<SenderConfigKind, boolean>;
  }

  async setSwitch(
    { accountId }: Caller,
    kind: SenderConfigKind,
    enabled: boolean,
  ): Promise<Record<SenderConfigKind, boolean>> {
    await repo.setSwitch(this.database, accountId, kind, enabled, this.now());
    this.invalidate({ accountId });
    return this.switches({ accountId });
  }

  /**
   * Adds an entry of a list kind, or saves the one entry of another kind. `input` is unparsed:
   * the kind's shared schema checks it here, so every adapter gets the same rules.
   */
  async save({ accountId }: Caller, kind: SenderConfigKind, input: unknown): Promise<SenderConfigView> {
    if (kind === 'intercept') {
      const { enabled } = SENDER_CONFIG_INPUTS.intercept.parse(input);
      await this.setSwitch({ accountId }, 'intercept', enabled);
      return this.get({ accountId }, kind);
    }
    const settings = await this.parse(accountId, kind, input);
    const key = keyOf(kind, settings);
    const now = this.now();
    const existing = await repo.findEntryByKey(this.database, accountId, kind, key);
    if (LIST_KINDS.has(kind)) {
      if (existing) throw new AppError('SENDER_CONFIG_DUPLICATE', { name: describe(kind, settings) });
      if ((await repo.countEntries(this.database, accountId, kind)) >= SENDER_CONFIG_MAX_ENTRIES) {
        throw new AppError('SENDER_CONFIG_LIMIT_REACHED', { max: SENDER_CONFIG_MAX_ENTRIES });
      }
      await this.insert(accountId, kind, key, settings, now);
    } else if (existing) {
      await repo.updateEntry(
        this.database,
        accountId,
        existing.id,
        { key, settings: JSON.stringify(settings) },
        now,
      );
    } else {
      await this.insert(accountId, kind, key, settings, now);
    }
    this.invalidate({ accountId });
    return this.get({ accountId }, kind);
  }

  async update(
    { accountId }: Caller,
    kind: SenderConfigKind,
    id: number,
    input: unknown,
  ): Promise<SenderConfigView> {
    const current = await repo.findEntry(this.database, accountId, kind, id);
    if (!current) throw new AppError('SENDER_CONFIG_NOT_FOUND');
    const settings = await this.parse(accountId, kind, input);
    const key = keyOf(kind, settings);
    const clash = await repo.findEntryByKey(this.database, accountId, kind, key);
    if (clash && Number(clash.id) !== id) {
      throw new AppError('SENDER_CONFIG_DUPLICATE', { name: describe(kind, settings) });
    }
    await repo.updateEntry(
      this.database,
      accountId,
      id,
      { key, settings: JSON.stringify(settings) },
      this.now(),
    );
    this.invalidate({ accountId });
    return this.get({ accountId }, kind);
  }

  async remove({ accountId }: Caller, kind: SenderConfigKind, id: number): Promise<void> {
    if (!(await repo.deleteEntry(this.database, accountId, kind, id)))
      throw new AppError('SENDER_CONFIG_NOT_FOUND');
    this.invalidate({ accountId });
  }

  /** True when the account's mail skips its custom interception rules (the `intercept` switch). */
  async skipsInterception({ accountId }: Caller): Promise<boolean> {
    return (await this.snapshot({ accountId })).skipsInterception;
  }

  /** Where bounce notices go: forwarded to `address` when `forward` is on. */
  async bounceSettings({ accountId }: Caller): Promise<{ forward: boolean; address: string | null }> {
    return (await this.snapshot({ accountId })).bounce;
  }

  /** The account's effective settings, cached for the hot path. */
  snapshot({ accountId }: Caller): Promise<SenderSnapshot> {
    const now = this.now();
    const cached = this.cache.get(accountId);
    if (cached && now - cached.at < this.ttlMs) return cached.value;
    if (this.cache.size > 10_000) this.cache.clear();
    const value = this.load(accountId);
    this.cache.set(accountId, { at: now, value });
    value.catch(() => this.cache.delete(accountId));
    return value;
  }

  invalidate({ accountId }: Caller): void {
    this.cache.delete(accountId);
  }

  private async load(accountId: number): Promise<SenderSnapshot> {
    const [rows, on] = await Promise.all([
      repo.listEntries(this.database, accountId),
      this.switches({ accountId }),
    ]);
    const of = (kind: SenderConfigKind) =>
      on[kind]
        ? rows.filter((r) => r.kind === kind).map((r) => JSON.parse(r.settings) as Record<string, unknown>)
        : [];
    const [ad] = of('ad');
    const [mailFrom] = of('mailfrom');
    const bounce = rows.find((r) => r.kind === 'bounce');
    const bounceSettings =
      bounce && on.bounce ? (JSON.parse(bounce.settings) as SenderSnapshot['bounce']) : null;
    const relay = on.relay ? rows.find((r) => r.kind === 'relay') : undefined;
    return {
      fromPrefixes: new Map(of('from').map((s) => [String(s.receiveDomain), String(s.fromPrefix)])),
      mailFromDomain: mailFrom ? String(mailFrom.domain) : null,
      adMark: ad ? { position: ad.position as AdPosition, text: String(ad.text) } : null,
      tlsDomains: of('tls').map((s) => String(s.domain)),
      noDisturb: of('nodisturb') as unknown as NoDisturbWindow[],
      skipsInterception: on.intercept,
      bounce: bounceSettings ?? { forward: false, address: null },
      timeZone: this.timeZone,
      relay: relay ? this.openRelay(accountId, relay) : null,
    };
  }

  private openRelay(accountId: number, row: repo.EntryRow): AccountRelay {
    const stored = JSON.parse(row.settings) as StoredRelay;
    const pass = stored.passwordSealed ? this.box().open(stored.passwordSealed, relayContext(accountId)) : '';
    const scheme = stored.security === 'tls' ? 'smtps' : 'smtp';
    return {
      key: `account:${accountId}:${Number(row.updated_at)}`,
      settings: {
        host: stored.host,
        port: stored.port,
        security: stored.security,
        requireTls: stored.security === 'tls' || stored.requireTls,
        rejectUnauthorized: stored.verifyCertificate,
        auth: stored.username ? { user: stored.username, pass } : null,
        describe: `${scheme}://${stored.username ? `${stored.username}@` : ''}${stored.host}:${stored.port}`,
      },
    };
  }

  /**
   * A relay entry to store: an address literal checked against the internal ranges, the password
   * sealed, or the stored one kept when the password is left empty for the same username.
   */
  private async relaySettings(accountId: number, input: SenderRelayInput): Promise<StoredRelay> {
    const { password, ...settings } = input;
    const { host } = settings;
    if (!this.relayAllowPrivate && parseIp(host) !== null && isRefusedAddress(host)) {
      throw new AppError('SENDER_RELAY_ADDRESS_REFUSED', { address: host });
    }
    if (!settings.username) return settings;
    if (password) return { ...settings, passwordSealed: this.box().seal(password, relayContext(accountId)) };
    const existing = await repo.findEntryByKey(this.database, accountId, 'relay', '');
    const previous = existing ? (JSON.parse(existing.settings) as StoredRelay) : undefined;
    if (previous?.username === settings.username && previous.passwordSealed) {
      return { ...settings, passwordSealed: previous.passwordSealed };
    }
    throw new AppError('SENDER_RELAY_PASSWORD_REQUIRED', { name: settings.username });
  }

  private box(): SecretBox {
    if (!this.secretBox) throw new Error('SenderConfigsService needs a secretBox for relay passwords');
    return this.secretBox;
  }

  private async parse(
    accountId: number,
    kind: SenderConfigKind,
    input: unknown,
  ): Promise<Record<string, unknown>> {
    const settings = SENDER_CONFIG_INPUTS[kind].parse(input ?? {}) as Record<string, unknown>;
    if (kind === 'relay') return this.relaySettings(accountId, settings as SenderRelayInput);
    if (kind === 'mailfrom') {
      const domain = String(settings.domain);
      const owned = await repo.sendingDomainNames(this.database, accountId);
      if (!owned.some((d) => domain === d || domain.endsWith(`.${d}`))) {
        throw new AppError('SENDER_MAILFROM_DOMAIN_NOT_OWNED', { name: domain });
      }
    }
    return settings;
  }

  private async insert(
    accountId: number,
    kind: SenderConfigKind,
    key: string,
    settings: Record<string, unknown>,
    now: number,
  ): Promise<void> {
    try {
      await repo.insertEntry(
        this.database,
        accountId,
        { kind, key, settings: JSON.stringify(settings) },
        now,
      );
    } catch (error) {
      if (await repo.findEntryByKey(this.database, accountId, kind, key)) {
        throw new AppError('SENDER_CONFIG_DUPLICATE', { name: describe(kind, settings) });
      }
      throw error;
    }
  }
}

/** The fixed-from prefix for a receiving domain: its own entry, else the `*` entry. */
export function fromPrefixFor(snapshot: SenderSnapshot, recipientDomain: string | undefined): string | null {
  const own = recipientDomain ? snapshot.fromPrefixes.get(recipientDomain.toLowerCase()) : undefined;
  return own ?? snapshot.fromPrefixes.get(ALL_RECEIVING_DOMAINS) ?? null;
}

/** A TLS entry covers its domain and the names below it (qq.com covers vip.qq.com). */
export function tlsRequired(snapshot: SenderSnapshot, recipientDomain: string): boolean {
  const domain = recipientDomain.toLowerCase();
  return snapshot.tlsDomains.some((d) => domain === d || domain.endsWith(`.${d}`));
}
