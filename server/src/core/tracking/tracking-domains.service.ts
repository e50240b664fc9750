import {
  AppError,
  type DnsCheckError,
  isReservedDomain,
  TRACK_DOMAIN_MAX,
  type TrackDomainInput,
  type TrackDomainUpdate,
  type TrackDomainView,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { createResolver, type DnsResolver } from '../../lib/dns-resolver.ts';
import type { Caller, UserCaller } from '../context.ts';
import { decodeCheckError, encodeCheckError } from '../domains/check-error.ts';
import { lookupFailed } from '../domains/dns-check.ts';
import { deleteSslCertificateOfDomain } from './ssl-certificates.repo.ts';
import * as repo from './tracking-domains.repo.ts';

export interface TrackingDomainsDeps {
  database: Database;
  /** The host custom tracking domains CNAME to. */
  cnameTarget: string;
  /** The platform's own names, which cannot be added. */
  reserved: readonly string[];
  dnsServers?: readonly string[];
  resolver?: DnsResolver;
  /** Called after a domain is removed (its certificate goes with it). */
  onRemoved?: (name: string) => void;
  now?: () => number;
}

/** Two-label public suffixes common among Herald's users, for the "primary domain" column. */
const SECOND_LEVEL = new Set([
  'com.cn',
  'net.cn',
  'org.cn',
  'gov.cn',
  'edu.cn',
  'ac.cn',
  'com.hk',
  'com.tw',
  'co.uk',
  'org.uk',
  'ac.uk',
  'co.jp',
  'com.au',
  'co.nz',
  'com.br',
  'co.kr',
  'com.sg',
]);

/**
 * Custom tracking domains (product-spec §3, §9; console-spec §7 "/trackDomains"): at most five
 * per account, unique across the platform (a tracking hit is served by host), each verified by a
 * CNAME to the platform's tracking host looked up through the configured resolver. A verified
 * domain may be made the account's default: its host then carries the pixel and click links of
 * the account's mail. A failed look-up (SERVFAIL, timeout) keeps the previous status.
 */
export class TrackingDomainsService {
  private readonly deps: TrackingDomainsDeps;
  private readonly resolver: DnsResolver;
  private readonly now: () => number;

  constructor(deps: TrackingDomainsDeps) {
    this.deps = deps;
    this.resolver = deps.resolver ?? createResolver(deps.dnsServers ?? [], { timeoutMs: 3000, tries: 2 });
    this.now = deps.now ?? Date.now;
  }

  async list(ctx: UserCaller): Promise<TrackDomainView[]> {
    const rows = await repo.listTrackingDomains(this.deps.database.db, ctx.accountId);
    return rows.map((r) => this.view(r));
  }

  async get(ctx: UserCaller, id: number): Promise<TrackDomainView> {
    return this.view(await this.row(ctx, id));
  }

  async add(ctx: UserCaller, input: TrackDomainInput): Promise<TrackDomainView> {
    const db = this.deps.database.db;
    this.checkName(input.name);
    if ((await repo.countTrackingDomains(db, ctx.accountId)) >= TRACK_DOMAIN_MAX) {
      throw new AppError('TRACKING_DOMAIN_LIMIT', { max: TRACK_DOMAIN_MAX });
    }
    const now = this.now();
    let id: number;
    try {
      id = await repo.insertTrackingDomain(db, {
        account_id: ctx.accountId,
        name: input.name,
        open_enabled: input.open ? 1 : 0,
        click_enabled: input.click ? 1 : 0,
        unsubscribe_enabled: input.unsubscribe ? 1 : 0,
        created_at: now,
        updated_at: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('TRACKING_DOMAIN_EXISTS');
      throw error;
    }
    return this.get(ctx, id);
  }

  /** A new name must be verified again (and stops being the default); switches apply at once. */
  async update(ctx: UserCaller, id: number, input: TrackDomainUpdate): Promise<TrackDomainView> {
    const current = await this.row(ctx, id);
    const renamed = input.name !== undefined && input.name !== current.name;
    if (renamed && input.name) this.checkName(input.name);
    const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);
    try {
      await repo.updateTrackingDomain(this.deps.database.db, ctx.accountId, id, {
        open_enabled: flag(input.open),
        click_enabled: flag(input.click),
        unsubscribe_enabled: flag(input.unsubscribe),
        ...(renamed
          ? {
              name: input.name,
              status: 'unverified',
              is_default: 0,
              cname_found: null,
              check_error: null,
              checked_at: null,
            }
          : {}),
        updated_at: this.now(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('TRACKING_DOMAIN_EXISTS');
      throw error;
    }
    if (renamed) {
      // The certificate was for the old name.
      await deleteSslCertificateOfDomain(this.deps.database.db, ctx.accountId, current.name);
      this.deps.onRemoved?.(current.name);
    }
    return this.get(ctx, id);
  }

  async remove(ctx: UserCaller, id: number): Promise<void> {
    const current = await this.row(ctx, id);
    const db = this.deps.database.db;
    await db.transaction().execute(async (trx) => {
      await deleteSslCertificateOfDomain(trx, ctx.accountId, current.name);
      await repo.deleteTrackingDomain(trx, ctx.accountId, id);
    });
    this.deps.onRemoved?.(current.name);
  }

  async setDefault(ctx: UserCaller, id: number): Promise<TrackDomainView> {
    const current = await this.row(ctx, id);
    if (current.status !== 'verified') throw new AppError('TRACKING_DOMAIN_NOT_VERIFIED');
    await repo.setDefaultTrackingDomain(this.deps.database.db, ctx.accountId, id);
    return this.get(ctx, id);
  }

  /** Looks up the CNAME now and stores what was found, the status and a reason. */
  async checkCname(ctx: UserCaller, id: number): Promise<TrackDomainView> {
    const current = await this.row(ctx, id);
    const target = this.deps.cnameTarget;
    let status = current.status;
    let found: string | null = current.cname_found;
    let error: DnsCheckError | null = null;
    try {
      const names = (await this.resolver.resolveCname(current.name)).map(normalize);
      found = names.join('\n') || null;
      status = names.includes(target) ? 'verified' : 'unverified';
      if (status !== 'verified') {
        error = {
          code: 'DNS_CHECK_CNAME_MISMATCH',
          params: { host: current.name, found: found ?? '', target },
        };
      }
    } catch (e) {
      const check = lookupFailed(current.name, 'CNAME', e);
      error = check.error;
      // A name or record that is not there unverifies the domain; a failed look-up keeps its state.
      if (check.status === 'missing') {
        status = 'unverified';
        found = null;
      }
    }
    await repo.updateTrackingDomain(this.deps.database.db, ctx.accountId, id, {
      status,
      cname_found: found,
      check_error: encodeCheckError(error),
      checked_at: this.now(),
      ...(status === 'verified' ? {} : { is_default: 0 }),
    });
    return this.get(ctx, id);
  }

  /** The account's tracking domain of this name, or undefined (SSL certificates need one). */
  async findByName({ accountId }: Caller, name: string): Promise<repo.TrackingDomainRow | undefined> {
    const rows = await repo.listTrackingDomains(this.deps.database.db, accountId);
    return rows.find((r) => r.name === name);
  }

  private async row(ctx: UserCaller, id: number): Promise<repo.TrackingDomainRow> {
    const row = await repo.findTrackingDomain(this.deps.database.db, ctx.accountId, id);
    if (!row) throw new AppError('TRACKING_DOMAIN_NOT_FOUND');
    return row;
  }

  private checkName(name: string): void {
    if (isReservedDomain(name, [...this.deps.reserved, this.deps.cnameTarget])) {
      throw new AppError('TRACKING_DOMAIN_RESERVED', { name });
    }
  }

  private view(row: repo.TrackingDomainRow): TrackDomainView {
    const { primaryDomain, hostRecord } = splitName(row.name);
    return {
      id: Number(row.id),
      name: row.name,
      hostRecord,
      primaryDomain,
      recordType: 'CNAME',
      recordValue: this.deps.cnameTarget,
      existingRecord: row.cname_found,
      status: row.status,
      ...checkErrorView(row.check_error),
      icpStatus: 'unchecked',
      open: Boolean(row.open_enabled),
      click: Boolean(row.click_enabled),
      unsubscribe: Boolean(row.unsubscribe_enabled),
      isDefault: Boolean(row.is_default),
      https: row.cert_valid_to !== null && Number(row.cert_valid_to) > this.now(),
      checkedAt: row.checked_at === null ? null : Number(row.checked_at),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
  }
}

export function splitName(name: string): { primaryDomain: string; hostRecord: string } {
  const labels = name.split('.');
  const take = SECOND_LEVEL.has(labels.slice(-2).join('.')) ? 3 : 2;
  const primaryDomain = labels.slice(-take).join('.');
  return { primaryDomain, hostRecord: labels.slice(0, -take).join('.') || '@' };
}

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, '');

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  return e?.code === '23505' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}

/** The stored check problem as the view gives it: English text, and the code to say it in the reader's language. */
function checkErrorView(stored: string | null) {
  const { error, errorCode, errorParams } = decodeCheckError(stored);
  return { checkError: error, checkErrorCode: errorCode, checkErrorParams: errorParams };
}
