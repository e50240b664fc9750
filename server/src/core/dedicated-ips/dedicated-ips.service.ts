import { isIP } from 'node:net';
import {
  type AdminDedicatedIpView,
  AppError,
  DEDICATED_IP_A_RECORD_DAYS,
  DEDICATED_IP_MAX_COUNT,
  DEDICATED_IP_MAX_MONTHS,
  DEDICATED_IP_MIN_MONTHS,
  DEDICATED_IP_MONTH_FEN,
  type DedicatedIpCostView,
  type DedicatedIpStatus,
  type DedicatedIpsPage,
  type DedicatedIpView,
  dedicatedIpCostQuerySchema,
  dedicatedIpFees,
  dedicatedIpPurchaseSchema,
  fenToYuan,
  type IndependentIpInfo,
  type IpPoolEntryView,
  ipPoolAddressSchema,
} from '@herald/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { createResolver, type DnsResolver } from '../../lib/dns-resolver.ts';
import type { Logger } from '../../logger.ts';
import type { OutboundAddresses } from '../../mta/ports.ts';
import type { Caller, UserCaller } from '../context.ts';
import { checkARecord } from './a-record-check.ts';
import { addMonths } from './billing-calendar.ts';
import { billDue } from './dedicated-ip-billing.ts';
import * as repo from './dedicated-ips.repo.ts';

export interface DedicatedIpsDeps {
  database: Database;
  logger: Logger;
  resolver?: DnsResolver;
  dnsServers?: readonly string[];
  /** Told when fees changed an account's balance (the send paths' caches). */
  onCharged?: (accountId: number) => void;
  now?: () => number;
  /** How long `addressesFor` keeps an answer; default 30 s (a voided purchase stops within a minute). */
  cacheMs?: number;
}

const DAY_MS = 86_400_000;
const CHECK_BATCH = 200;
/** Answers kept at most (one per account and sending domain that sent lately). */
const CACHE_MAX = 10_000;

/**
 * Dedicated IPs (issue 18; product-spec §3, §4, §6, §9). A paid account buys addresses for one of
 * its sending domains, one purchase per address, for 12 to 36 months; its balance must cover the
 * first month. An address comes from the operator's pool at once when one is free, else the
 * purchase waits until the operator assigns one. From the assignment the purchase is active and
 * the customer has 7 days to publish the A record: the sending domain itself resolving to the
 * address (the periodic check looks it up through Herald's resolver); without it the purchase
 * is voided, never billed, and its address goes back to the pool. Active purchases end at
 * starts_at + months. Fees: dedicated-ip-billing.ts.
 *
 * The MTA asks `addressesFor` which local addresses the account's mail from a sending domain
 * leaves from (the `OutboundAddresses` port): the active purchases' addresses, kept for
 * `cacheMs`, and forgotten at once in this process when a purchase changes.
 */
export class DedicatedIpsService implements OutboundAddresses {
  private readonly deps: DedicatedIpsDeps;
  private readonly database: Database;
  private readonly now: () => number;
  private readonly resolver: DnsResolver;
  private readonly cacheMs: number;
  private readonly cache = new Map<string, { at: number; addresses: Promise<string[]> }>();

  constructor(deps: DedicatedIpsDeps) {
    this.deps = deps;
    this.database = deps.database;
    this.now = deps.now ?? Date.now;
    this.resolver = deps.resolver ?? createResolver(deps.dnsServers ?? [], { timeoutMs: 3000, tries: 2 });
    this.cacheMs = deps.cacheMs ?? 30_000;
  }

  async list({ accountId }: Caller): Promise<DedicatedIpsPage> {
    const [rows, funds, domains] = await Promise.all([
      repo.listForAccount(this.database, accountId),
      repo.accountFunds(this.database, accountId),
      repo.accountDomains(this.database, accountId),
    ]);
    return {
      list: rows.map(purchaseView),
      paid: funds?.plan === 'paid',
      balanceFen: Number(funds?.balance_fen ?? 0),
      domains: domains.map((d) => ({ id: Number(d.id), name: d.name })),
    };
  }

  async get({ accountId }: Caller, id: number): Promise<DedicatedIpView> {
    const row = await repo.findOwned(this.database, accountId, id);
    if (!row) throw new AppError('DEDICATED_IP_NOT_FOUND');
    return purchaseView(row);
  }

  /** What buying `count` addresses for `months` months now costs, and whether the balance covers it. */
  async cost({ accountId }: Caller, query: unknown): Promise<DedicatedIpCostView> {
    const parsed = dedicatedIpCostQuerySchema.safeParse(query);
    if (!parsed.success) throw invalidPurchase();
    const fees = dedicatedIpFees(parsed.data.count, parsed.data.months, this.now());
    const balanceFen = Number((await repo.accountFunds(this.database, accountId))?.balance_fen ?? 0);
    return { ...fees, balanceFen, enough: balanceFen >= fees.firstMonthFen };
  }

  /**
   * Buys `count` addresses for a domain of the account: paid accounts only, the balance covering
   * the first month. Each address is a purchase; free pool addresses are assigned at once.
   */
  async purchase(caller: UserCaller, input: unknown): Promise<DedicatedIpView[]> {
    const parsed = dedicatedIpPurchaseSchema.safeParse(input);
    if (!parsed.success) throw invalidPurchase();
    const { domainId, count, months } = parsed.data;
    const { accountId } = caller;
    const funds = await repo.accountFunds(this.database, accountId);
    if (funds?.plan !== 'paid') throw new AppError('DEDICATED_IP_PAID_ONLY');
    const domain = await repo.findDomain(this.database, accountId, domainId);
    if (!domain) throw new AppError('DOMAIN_NOT_FOUND');
    const now = this.now();
    const fees = dedicatedIpFees(count, months, now);
    const balanceFen = Number(funds.balance_fen ?? 0);
    if (balanceFen < fees.firstMonthFen) {
      throw new AppError('DEDICATED_IP_BALANCE_INSUFFICIENT', {
        fee: fenToYuan(fees.firstMonthFen),
        balance: fenToYuan(balanceFen),
      });
    }
    const ids = await this.database.db.transaction().execute(async (trx) => {
      const made: number[] = [];
      for (let i = 0; i < count; i++) {
        const id = await repo.insertPurchase(trx, {
          account_id: accountId,
          domain_id: Number(domain.id),
          domain_name: domain.name.toLowerCase(),
          status: 'pending',
          months,
          price_month_fen: DEDICATED_IP_MONTH_FEN,
          created_by: caller.userId,
          created_at: now,
          updated_at: now,
        });
        await this.assignFree(trx, id, months, now);
        made.push(id);
      }
      return made;
    });
    this.forget(accountId);
    this.deps.logger.info({ accountId, domain: domain.name, count, months }, 'dedicated IPs bought');
    const rows = await Promise.all(ids.map((id) => repo.findOwned(this.database, accountId, id)));
    return rows.map((r) => purchaseView(r as repo.PurchaseRow));
  }

  /** `/config/independentIpInfo`: the account's assigned addresses per sending domain. */
  async independentIpInfo({ accountId }: Caller): Promise<IndependentIpInfo> {
    const rows = await repo.listForAccount(this.database, accountId);
    const byDomain = new Map<number, IndependentIpInfo['domains'][number]>();
    for (const row of rows) {
      if (row.address === null || (row.status !== 'active' && row.status !== 'pending')) continue;
      const domainId = Number(row.domain_id);
      const entry = byDomain.get(domainId) ?? { domainId, domain: row.domain_name, addresses: [] };
      entry.addresses.push({
        purchaseId: Number(row.id),
        address: row.address,
        status: row.status,
        aRecordSeen: row.a_record_seen_at !== null,
        aRecordDeadline: numberOrNull(row.a_record_deadline),
      });
      byDomain.set(domainId, entry);
    }
    return { domains: [...byDomain.values()] };
  }

  /** The MTA's question (port `OutboundAddresses`): the local addresses this mail leaves from; [] = default. */
  addressesFor(accountId: number, senderDomain: string): Promise<string[]> {
    const key = `${accountId}:${senderDomain.toLowerCase()}`;
    const now = Date.now();
    const cached = this.cache.get(key);
    if (cached && now - cached.at < this.cacheMs) return cached.addresses;
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    const addresses = repo.activeAddresses(this.database, accountId, senderDomain.toLowerCase());
    this.cache.set(key, { at: now, addresses });
    addresses.catch(() => this.cache.delete(key));
    return addresses;
  }

  // ── the operator's side ────────────────────────────────────────────────────────────────────

  async pool(): Promise<IpPoolEntryView[]> {
    return (await repo.listPool(this.database)).map(poolView);
  }

  /** Adds an address to the pool (free). */
  async addToPool(input: unknown): Promise<IpPoolEntryView> {
    const address = parseAddress(input);
    if (await repo.findPoolAddress(this.database.db, address)) {
      throw new AppError('DEDICATED_IP_ADDRESS_TAKEN', { address });
    }
    try {
      await repo.insertPoolAddress(this.database, address, this.now());
    } catch (error) {
      if (await repo.findPoolAddress(this.database.db, address)) {
        throw new AppError('DEDICATED_IP_ADDRESS_TAKEN', { address });
      }
      throw error;
    }
    return poolView((await repo.findPoolAddress(this.database.db, address)) as PoolRow);
  }

  /** Every account's purchases (operators), newest first. */
  async all(status?: DedicatedIpStatus, limit = 500): Promise<AdminDedicatedIpView[]> {
    const rows = await repo.listAll(this.database, { status, limit });
    return rows.map(({ username, ...row }) => ({
      ...purchaseView(row),
      accountId: Number(row.account_id),
      userName: username,
    }));
  }

  /**
   * The operator assigns an address to a waiting purchase: the named one (which must be a free
   * pool address), or the oldest free one when none is named.
   */
  async assign(purchaseId: number, addressInput?: unknown): Promise<AdminDedicatedIpView> {
    const address = addressInput === undefined || addressInput === null ? null : parseAddress(addressInput);
    const row = await repo.findById(this.database.db, purchaseId);
    if (!row) throw new AppError('DEDICATED_IP_NOT_FOUND');
    if (row.status !== 'pending') throw new AppError('DEDICATED_IP_NOT_PENDING');
    const now = this.now();
    await this.database.db.transaction().execute(async (trx) => {
      if (address === null) {
        if (!(await this.assignFree(trx, purchaseId, row.months, now))) {
          throw new AppError('DEDICATED_IP_ADDRESS_UNAVAILABLE', { address: '-' });
        }
        return;
      }
      if (!(await repo.claimAddress(trx, address, purchaseId, now))) {
        throw new AppError('DEDICATED_IP_ADDRESS_UNAVAILABLE', { address });
      }
      if (!(await repo.activate(trx, purchaseId, activation(address, row.months, now)))) {
        throw new AppError('DEDICATED_IP_NOT_PENDING');
      }
    });
    this.forget(Number(row.account_id));
    this.deps.logger.info({ purchaseId, accountId: Number(row.account_id) }, 'a dedicated IP was assigned');
    return (await this.all()).find((p) => p.id === purchaseId) as AdminDedicatedIpView;
  }

  /** Takes the oldest free pool address for a pending purchase; false when the pool has none. */
  private async assignFree(
    trx: Kysely<DB>,
    purchaseId: number,
    months: number,
    now: number,
  ): Promise<boolean> {
    for (;;) {
      const free = await repo.freeAddresses(trx, 5);
      if (free.length === 0) return false;
      for (const address of free) {
        if (await repo.claimAddress(trx, address, purchaseId, now)) {
          return repo.activate(trx, purchaseId, activation(address, months, now));
        }
      }
    }
  }

  // ── the worker's side ──────────────────────────────────────────────────────────────────────

  /**
   * The periodic check: active purchases whose A record has not been seen are looked up; one
   * seen stays for good, one past its deadline without it is voided (its address back to the
   * pool). A look-up that could not be answered (SERVFAIL, timeout) voids nothing. Purchases past
   * their end expire. Answers what happened.
   */
  async checkDue(): Promise<{ checked: number; seen: number; voided: number; expired: number }> {
    const result = { checked: 0, seen: 0, voided: 0, expired: 0 };
    for (const row of await repo.awaitingARecord(this.database, CHECK_BATCH)) {
      const address = row.address as string;
      const check = await checkARecord(this.resolver, row.domain_name, address);
      const at = this.now();
      result.checked++;
      await repo.recordCheck(this.database, Number(row.id), { at, seen: check.seen, error: check.error });
      if (check.seen) {
        result.seen++;
      } else if (!check.temporary && at >= Number(row.a_record_deadline)) {
        if (await this.endPurchase(row, 'voided', at)) result.voided++;
      }
    }
    const now = this.now();
    for (const row of await repo.pastEnd(this.database, now, CHECK_BATCH)) {
      if (await this.endPurchase(row, 'expired', now)) result.expired++;
    }
    return result;
  }

  private async endPurchase(
    row: repo.PurchaseRow,
    status: 'voided' | 'expired',
    at: number,
  ): Promise<boolean> {
    const id = Number(row.id);
    const ended = await this.database.db.transaction().execute(async (trx) => {
      if (!(await repo.end(trx, id, status, status === 'voided' ? 'a_record_missing' : null, at)))
        return false;
      if (row.address) await repo.releaseAddress(trx, row.address, id, at);
      return true;
    });
    if (ended) {
      this.forget(Number(row.account_id));
      this.deps.logger.info(
        { purchaseId: id, accountId: Number(row.account_id), status },
        'a dedicated IP ended',
      );
    }
    return ended;
  }

  /**
   * Posts the monthly fees of every month that has ended and is not billed yet (on the 1st of
   * the month, the month before). Answers how many ledger entries were posted.
   */
  async billDue(): Promise<number> {
    return billDue(this.database, this.now(), (accountId) => this.deps.onCharged?.(accountId));
  }

  /** Forgets the account's cached addresses (a purchase of it changed in this process). */
  private forget(accountId: number): void {
    for (const key of this.cache.keys()) if (key.startsWith(`${accountId}:`)) this.cache.delete(key);
  }
}

type PoolRow = NonNullable<Awaited<ReturnType<typeof repo.findPoolAddress>>>;

function activation(address: string, months: number, now: number) {
  return {
    address,
    startsAt: now,
    endsAt: addMonths(now, months),
    deadline: now + DEDICATED_IP_A_RECORD_DAYS * DAY_MS,
  };
}

function parseAddress(input: unknown): string {
  const parsed = ipPoolAddressSchema.safeParse(input);
  if (!parsed.success || isIP(parsed.data) === 0) throw new AppError('DEDICATED_IP_ADDRESS_INVALID');
  return parsed.data.toLowerCase();
}

function invalidPurchase(): AppError {
  return new AppError('DEDICATED_IP_PURCHASE_INVALID', {
    maxCount: DEDICATED_IP_MAX_COUNT,
    minMonths: DEDICATED_IP_MIN_MONTHS,
    maxMonths: DEDICATED_IP_MAX_MONTHS,
  });
}

function numberOrNull(value: number | null): number | null {
  return value === null ? null : Number(value);
}

function purchaseView(row: repo.PurchaseRow): DedicatedIpView {
  return {
    id: Number(row.id),
    domainId: Number(row.domain_id),
    domain: row.domain_name,
    address: row.address,
    status: row.status,
    months: Number(row.months),
    priceMonthFen: Number(row.price_month_fen),
    paymentMethod: 'balance',
    startsAt: numberOrNull(row.starts_at),
    endsAt: numberOrNull(row.ends_at),
    aRecord: {
      host: row.domain_name,
      type: row.address !== null && isIP(row.address) === 6 ? 'AAAA' : 'A',
      value: row.address,
      seenAt: numberOrNull(row.a_record_seen_at),
      deadline: numberOrNull(row.a_record_deadline),
      checkedAt: numberOrNull(row.a_record_checked_at),
      error: row.a_record_error,
    },
    voidReason: row.void_reason,
    createdAt: Number(row.created_at),
  };
}

function poolView(row: PoolRow): IpPoolEntryView {
  return {
    address: row.address,
    status: row.status,
    purchaseId: numberOrNull(row.purchase_id),
    createdAt: Number(row.created_at),
  };
}
