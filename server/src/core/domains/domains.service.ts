import { randomUUID } from 'node:crypto';
import type { DkimKeyInfo, DomainPage, DomainView } from '@herald/shared';
import {
  AppError,
  DOMAIN_MAX,
  type DomainListQuery,
  type DomainRecordKind,
  type DomainRecordStatus,
  type DomainStatus,
  isReservedDomain,
} from '@herald/shared';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { createResolver, type DnsResolver } from '../../lib/dns-resolver.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Logger } from '../../logger.ts';
import type { Caller, UserCaller } from '../context.ts';
import { encodeCheckError } from './check-error.ts';
import { createDkimKey, DKIM_KEY_BITS } from './dkim-key.ts';
import { checkDkim, checkDomain, type DomainCheck, type RecordCheck } from './dns-check.ts';
import { dkimHost, domainView, isUsable } from './domain-view.ts';
import type { DomainRow } from './domains.repo.ts';
import * as repo from './domains.repo.ts';

export interface DomainsDeps {
  database: Database;
  secretBox: SecretBox;
  settings: Config['sendingDomains'];
  logger: Logger;
  resolver?: DnsResolver;
  dnsServers?: readonly string[];
}

/** How often the periodic task re-checks a domain, by its state (see check-domain-dns.task.ts). */
export const RECHECK = {
  /** Unverified or usable domains added or renamed in the last three days: every five minutes. */
  freshMs: 5 * 60_000,
  freshForMs: 3 * 24 * 3_600_000,
  /** Older domains that still fail: hourly. */
  staleMs: 3_600_000,
  /** Verified domains: daily, to notice a record that was removed. */
  verifiedMs: 24 * 3_600_000,
  batch: 50,
} as const;

/**
 * Sending domains (product-spec §3–4): at most five per account, each with a DKIM key pair of its
 * own and four records to publish. Verification queries DNS through the configured resolver and
 * stores a status, the value found and a reason per record; the domain's status follows from them:
 * unverified while SPF, DKIM or MX fails, usable when those pass, verified when DMARC passes too.
 * A look-up that failed (SERVFAIL, timeout) keeps the record's previous status so a flaky resolver
 * does not take a working domain out of service; its error is still shown.
 */
export class DomainsService {
  private readonly deps: DomainsDeps;
  private readonly resolver: DnsResolver;

  constructor(deps: DomainsDeps) {
    this.deps = deps;
    this.resolver = deps.resolver ?? createResolver(deps.dnsServers ?? [], { timeoutMs: 3000, tries: 2 });
  }

  async list(ctx: UserCaller, query: DomainListQuery): Promise<DomainPage> {
    const { database } = this.deps;
    const offset = (query.pageNum - 1) * query.pageSize;
    const [rows, total] = await Promise.all([
      repo.searchDomains(database, ctx.accountId, query.name, offset, query.pageSize),
      repo.countDomains(database, ctx.accountId, query.name),
    ]);
    return { list: rows.map((r) => this.view(r)), total };
  }

  /** Every domain of the account (`all`), or only those that can send (`all/ok`: usable or verified). */
  async all(ctx: UserCaller, onlyUsable = false): Promise<DomainView[]> {
    const rows = await repo.listDomains(this.deps.database, ctx.accountId, {
      ...(onlyUsable ? { statuses: ['usable', 'verified'] } : {}),
    });
    return rows.map((r) => this.view(r));
  }

  /** The account's domain rows, or only the named ones (SendCloud's domain/list). */
  async rows({ accountId }: Caller, names?: readonly string[]): Promise<DomainRow[]> {
    return repo.listDomains(this.deps.database, accountId, names ? { names } : {});
  }

  async get(ctx: UserCaller, id: number): Promise<DomainView> {
    return this.view(await this.row(ctx.accountId, id));
  }

  async getByName({ accountId }: Caller, name: string): Promise<DomainRow> {
    const row = await repo.findDomainByName(this.deps.database, accountId, name);
    if (!row) throw new AppError('DOMAIN_NOT_FOUND');
    return row;
  }

  async add(ctx: UserCaller, name: string): Promise<DomainView> {
    const { database, secretBox } = this.deps;
    this.refuseReserved(name);
    // The key takes a moment to generate; do it before the transaction holds the account lock.
    const key = await createDkimKey(secretBox, ctx.accountId);
    let id: number;
    try {
      id = await database.db.transaction().execute(async (trx) => {
        const scoped = { ...database, db: trx };
        const now = Date.now();
        await repo.lockAccount(scoped, ctx.accountId, now);
        if (await repo.findDomainByName(scoped, ctx.accountId, name)) throw new AppError('DOMAIN_TAKEN');
        if ((await repo.countDomains(scoped, ctx.accountId)) >= DOMAIN_MAX) {
          throw new AppError('DOMAIN_LIMIT_REACHED', { max: DOMAIN_MAX });
        }
        return repo.insertDomain(scoped, ctx.accountId, { name, ...key, verifyKey: randomUUID() }, now);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('DOMAIN_TAKEN');
      throw error;
    }
    return this.get(ctx, id);
  }

  /** SendCloud's domain/update: a new name, only while no record of the domain has passed a check. */
  async rename(ctx: UserCaller, id: number, name: string): Promise<DomainView> {
    const row = await this.row(ctx.accountId, id);
    if (row.name === name) return this.view(row);
    const kinds = ['spf', 'dkim', 'mx', 'dmarc'] as const;
    if (kinds.some((k) => row[`${k}_status`] === 'ok')) throw new AppError('DOMAIN_RENAME_LOCKED');
    this.refuseReserved(name);
    const taken = await repo.findDomainByName(this.deps.database, ctx.accountId, name);
    if (taken) throw new AppError('DOMAIN_TAKEN');
    const reset: repo.DomainPatch = { name, status: 'unverified', checked_at: null, updated_at: Date.now() };
    for (const k of kinds)
      Object.assign(reset, { [`${k}_status`]: 'pending', [`${k}_found`]: null, [`${k}_error`]: null });
    if (row.dkim_next_selector) Object.assign(reset, { dkim_next_status: 'pending', dkim_next_error: null });
    try {
      await repo.updateDomain(this.deps.database, ctx.accountId, id, reset);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('DOMAIN_TAKEN');
      throw error;
    }
    return this.get(ctx, id);
  }

  async remove(ctx: UserCaller, id: number): Promise<void> {
    await this.row(ctx.accountId, id);
    const bound = await repo.boundApiUsers(this.deps.database, ctx.accountId, id);
    if (bound.length > 0) throw new AppError('DOMAIN_IN_USE', { apiUsers: bound.join(', ') });
    await repo.deleteDomain(this.deps.database, ctx.accountId, id);
  }

  /**
   * `safeDkim`: a new 2048-bit key under a new selector, published beside the current one. Mail
   * stays signed with the current key until a check finds the new record; then the new key takes
   * over and the old record may be removed. Asking again replaces a rotation still under way.
   */
  async rotateDkim(ctx: UserCaller, id: number): Promise<DomainView> {
    await this.row(ctx.accountId, id);
    const key = await createDkimKey(this.deps.secretBox, ctx.accountId);
    await repo.updateDomain(this.deps.database, ctx.accountId, id, {
      dkim_next_selector: key.selector,
      dkim_next_public_key: key.publicKey,
      dkim_next_private_key_sealed: key.privateKeySealed,
      dkim_next_status: 'pending',
      dkim_next_error: null,
      updated_at: Date.now(),
    });
    return this.get(ctx, id);
  }

  async cancelDkimRotation(ctx: UserCaller, id: number): Promise<DomainView> {
    await this.row(ctx.accountId, id);
    await repo.updateDomain(this.deps.database, ctx.accountId, id, NO_ROTATION);
    return this.get(ctx, id);
  }

  /** "Verify now": queries every record and stores the outcome. */
  async verify(ctx: UserCaller, id: number): Promise<DomainView> {
    const row = await this.row(ctx.accountId, id);
    return this.view(await this.check(row));
  }

  /** The periodic re-check: domains whose last check is older than their state's interval. */
  async recheckDue(now = Date.now()): Promise<number> {
    const due = await repo.dueDomains(this.deps.database, now, RECHECK, RECHECK.batch);
    for (const row of due) {
      try {
        await this.check(row);
      } catch (error) {
        this.deps.logger.warn({ err: error, domainId: row.id }, 'domain DNS re-check failed');
      }
    }
    return due.length;
  }

  /** For API_USER binding and sending: the account's domain when it may send (usable or verified). */
  async findUsableDomain({ accountId }: Caller, domainId: number): Promise<DomainRow | undefined> {
    const row = await repo.findDomain(this.deps.database, accountId, domainId);
    return row && isUsable(row.status) ? row : undefined;
  }

  /** For the SMTP and HTTP send paths: whether a sender address's domain may send for the account. */
  async isUsableSenderDomain({ accountId }: Caller, domainName: string): Promise<boolean> {
    const name = domainName.trim().toLowerCase().replace(/\.$/, '');
    const row = await repo.findDomainByName(this.deps.database, accountId, name);
    return row !== undefined && isUsable(row.status);
  }

  /** The key in use for a domain, for the console's DKIM screen. */
  view(row: DomainRow): DomainView {
    return domainView(row, this.deps.settings);
  }

  dkimInfo(view: DomainView): DkimKeyInfo {
    return { selector: view.dkimSelector, bits: DKIM_KEY_BITS, algorithm: 'rsa-sha256' };
  }

  private async check(row: DomainRow): Promise<DomainRow> {
    const result = await checkDomain(this.resolver, {
      domain: row.name,
      spfDomain: this.deps.settings.spfDomain,
      dkimHost: dkimHost(row),
      dkimPublicKey: row.dkim_public_key,
      mxHost: this.deps.settings.inboundMxHost,
      dmarcHost: `_dmarc.${row.name}`,
    });
    const patch: repo.DomainPatch = outcome(row, result);
    if (row.dkim_next_selector && row.dkim_next_public_key && row.dkim_next_private_key_sealed) {
      const next = await checkDkim(
        this.resolver,
        dkimHost({ name: row.name, dkim_selector: row.dkim_next_selector }),
        row.dkim_next_public_key,
      );
      if (next.status === 'ok') {
        Object.assign(patch, NO_ROTATION, {
          dkim_selector: row.dkim_next_selector,
          dkim_public_key: row.dkim_next_public_key,
          dkim_private_key_sealed: row.dkim_next_private_key_sealed,
          dkim_status: 'ok',
          dkim_found: next.found,
          dkim_error: null,
        });
        this.deps.logger.info({ domainId: row.id }, 'DKIM key rotated: the new record is published');
      } else {
        Object.assign(patch, {
          dkim_next_status: next.status,
          dkim_next_error: encodeCheckError(next.error),
        });
      }
    }
    const now = Date.now();
    const status = domainStatus(patch as RecordState);
    const full: repo.DomainPatch = { ...patch, status, checked_at: now };
    await repo.updateDomain(this.deps.database, Number(row.account_id), Number(row.id), full);
    if (status !== row.status) {
      this.deps.logger.info(
        { domainId: row.id, from: row.status, to: status },
        'sending domain status changed',
      );
    }
    return { ...row, ...full } as DomainRow;
  }

  private async row(accountId: number, id: number): Promise<DomainRow> {
    const row = await repo.findDomain(this.deps.database, accountId, id);
    if (!row) throw new AppError('DOMAIN_NOT_FOUND');
    return row;
  }

  private refuseReserved(name: string): void {
    if (isReservedDomain(name, this.deps.settings.reserved)) throw new AppError('DOMAIN_RESERVED', { name });
  }
}

const NO_ROTATION = {
  dkim_next_selector: null,
  dkim_next_public_key: null,
  dkim_next_private_key_sealed: null,
  dkim_next_status: null,
  dkim_next_error: null,
} satisfies repo.DomainPatch;

type RecordState = Record<`${DomainRecordKind}_status`, DomainRecordStatus> &
  Record<`${DomainRecordKind}_${'found' | 'error'}`, string | null>;

/** A DNS failure keeps the previous verdict (and its found value) but records the error. */
function outcome(row: DomainRow, result: DomainCheck): RecordState {
  const state = {} as RecordState;
  for (const kind of ['spf', 'dkim', 'mx', 'dmarc'] as const) {
    const check: RecordCheck = result[kind];
    const keepPrevious = check.status === 'error' && row[`${kind}_status`] !== 'pending';
    state[`${kind}_status`] = keepPrevious ? row[`${kind}_status`] : check.status;
    state[`${kind}_found`] = keepPrevious ? row[`${kind}_found`] : check.found;
    state[`${kind}_error`] = encodeCheckError(check.error);
  }
  return state;
}

/** product-spec §4: unverified while SPF, DKIM or MX fails; usable when they pass; verified with DMARC. */
export function domainStatus(state: Pick<RecordState, `${DomainRecordKind}_status`>): DomainStatus {
  const required = state.spf_status === 'ok' && state.dkim_status === 'ok' && state.mx_status === 'ok';
  if (!required) return 'unverified';
  return state.dmarc_status === 'ok' ? 'verified' : 'usable';
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  return e?.code === '23505' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}
