import { randomBytes } from 'node:crypto';
import {
  AppError,
  BEIJING_OFFSET_MS,
  VOUCHER_CODE_ALPHABET,
  VOUCHER_CODE_LENGTH,
  VOUCHER_VALID_MONTHS,
  type VoucherStatus,
  type VouchersPage,
  type VouchersQuery,
  type VoucherUseView,
  type VoucherView,
  voucherClaimSchema,
  voucherIssueSchema,
  yuanToFen,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import { balanceOf, postEntry } from '../ledger/ledger.repo.ts';
import * as repo from './vouchers.repo.ts';

export interface VouchersDeps {
  /** Told when a voucher changed an account's balance (the send paths' caches). */
  onFunded?: (accountId: number) => void;
  now?: () => number;
}

/** A voucher as operators list it: with the user name of the account it belongs to. */
export type AdminVoucherView = VoucherView & { username: string | null };

/**
 * Vouchers (issue 18; product-spec §3 "Coupon/voucher: number or code, expiry, status", §6, §9,
 * §169 compensation given as vouchers).
 *
 * - An operator issues vouchers (`vouchers:issue`, /admin): to an account, or bare (codes to hand
 *   out). Each has a 16-character code of letters and digits that cannot be misread (no 0/O,
 *   1/I/L), an amount in fen, and is valid 3 months by the Beijing calendar from its issue (a
 *   voucher issued on 30 November expires on 28 February at the same time of day).
 * - A customer sees the vouchers given to their account and may claim a bare one by typing its
 *   code (spaces, dashes and case do not matter); a code another account claimed is unknown.
 * - Using one credits its amount to the balance: the voucher flips unused → used and its ledger
 *   entry (`voucher`, key `voucher:<id>`) is posted in one transaction, so two clicks at once
 *   credit it once and the second is told it is used.
 * - A free account cannot use vouchers until its first recharge makes it paid (product-spec §6);
 *   it can still see and claim them. An expired voucher cannot be used; its stored status is
 *   caught up by the expiry task (worker/tasks/expire-vouchers.task.ts), and every read already
 *   shows it expired.
 */
export class VouchersService {
  private readonly database: Database;
  private readonly deps: VouchersDeps;
  private readonly now: () => number;

  constructor(database: Database, deps: VouchersDeps = {}) {
    this.database = database;
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  /** The account's vouchers, newest first, and whether its plan lets it use them. */
  async list({ accountId }: Caller, query: VouchersQuery): Promise<VouchersPage> {
    const now = this.now();
    const [{ rows, total }, plan] = await Promise.all([
      repo.listVouchers(this.database, {
        accountId,
        status: query.status,
        now,
        offset: (query.pageNum - 1) * query.pageSize,
        limit: query.pageSize,
      }),
      repo.accountPlan(this.database, accountId),
    ]);
    return { list: rows.map((r) => voucherView(r, now)), total, free: plan !== 'paid' };
  }

  /** Claims a bare voucher by its code for the caller's account; claiming one's own again answers it. */
  async claim({ accountId }: Caller, input: unknown): Promise<VoucherView> {
    const { code } = voucherClaimSchema.parse(input);
    const now = this.now();
    if (!(await repo.claim(this.database, code, accountId, now))) {
      const found = await repo.findByCode(this.database, code);
      if (!found || (found.account_id !== null && Number(found.account_id) !== accountId)) {
        throw new AppError('VOUCHER_CODE_UNKNOWN');
      }
      if (found.account_id === null) refuseUnusable(voucherView(found, now).status);
    }
    return voucherView((await repo.findByCode(this.database, code)) as repo.VoucherRow, now);
  }

  /** Uses the account's voucher: its amount is credited once. Answers it and the balance after. */
  async use(caller: Caller, id: number): Promise<VoucherUseView> {
    const { accountId } = caller;
    const found = await repo.findById(this.database.db, id);
    if (!found || Number(found.account_id) !== accountId) throw new AppError('VOUCHER_NOT_FOUND');
    if ((await repo.accountPlan(this.database, accountId)) !== 'paid') {
      throw new AppError('VOUCHER_FREE_ACCOUNT');
    }
    const used = await this.database.db.transaction().execute(async (trx) => {
      const at = this.now();
      if (!(await repo.markUsed(trx, accountId, id, caller.userId ?? null, at))) return false;
      await postEntry(trx, {
        accountId,
        kind: 'voucher',
        amountFen: Number(found.amount_fen),
        reason: `Voucher ${found.code.slice(0, 4)}…${found.code.slice(-4)}`,
        detail: JSON.stringify({ voucherId: id, reason: found.reason }),
        idempotencyKey: `voucher:${id}`,
        createdBy: caller.userId ?? null,
        at,
      });
      return true;
    });
    const after = (await repo.findById(this.database.db, id)) as repo.VoucherRow;
    if (!used) refuseUnusable(voucherView(after, this.now()).status);
    this.deps.onFunded?.(accountId);
    return {
      voucher: voucherView(after, this.now()),
      balanceFen: await balanceOf(this.database, accountId),
    };
  }

  /**
   * An operator's issue of `count` vouchers of `amount` yuan, to `accountId` or bare (null).
   * `operator` is null from the command line.
   */
  async issue(operator: Caller | null, input: unknown): Promise<VoucherView[]> {
    const parsed = voucherIssueSchema.safeParse(input);
    if (!parsed.success) throw new AppError('VOUCHER_ISSUE_INVALID');
    const { accountId, amount, count, reason } = parsed.data;
    if (accountId !== null && !(await repo.accountPlan(this.database, accountId))) {
      throw new AppError('COMMON_NOT_FOUND', { entity: `account ${accountId}` });
    }
    const now = this.now();
    const issued: VoucherView[] = [];
    while (issued.length < count) {
      const code = newCode();
      const voucher: repo.NewVoucher = {
        code,
        account_id: accountId,
        amount_fen: yuanToFen(amount) as number,
        status: 'unused',
        reason,
        issued_by: operator?.userId ?? null,
        issued_at: now,
        expires_at: addBeijingMonths(now, VOUCHER_VALID_MONTHS),
      };
      const id = await repo.insertVoucher(this.database, voucher);
      // A code drawn twice (one chance in 31^16) is simply drawn again.
      if (id !== null) {
        issued.push(
          voucherView(
            { ...voucher, id, claimed_at: null, used_at: null, used_by: null, voided_at: null },
            now,
          ),
        );
      }
    }
    return issued;
  }

  /** Every account's vouchers for operators, newest first. */
  async listAll(query: VouchersQuery): Promise<{ list: AdminVoucherView[]; total: number }> {
    const now = this.now();
    const { rows, total } = await repo.listVouchers(this.database, {
      accountId: query.accountId,
      status: query.status,
      now,
      offset: (query.pageNum - 1) * query.pageSize,
      limit: query.pageSize,
    });
    return { list: rows.map((r) => ({ ...voucherView(r, now), username: r.username })), total };
  }

  /** An operator voids an unused voucher (a mistaken issue); a used one stays used. */
  async void(id: number): Promise<VoucherView> {
    const now = this.now();
    if (!(await repo.markVoided(this.database, id, now))) {
      const found = await repo.findById(this.database.db, id);
      if (!found) throw new AppError('VOUCHER_NOT_FOUND');
      if (found.status !== 'voided') refuseUnusable(voucherView(found, now).status);
    }
    return voucherView((await repo.findById(this.database.db, id)) as repo.VoucherRow, now);
  }

  /** The expiry task's turn: unused vouchers past their time become expired. */
  expireDue(): Promise<number> {
    return repo.expireDue(this.database, this.now());
  }
}

function refuseUnusable(status: VoucherStatus): never {
  if (status === 'used') throw new AppError('VOUCHER_ALREADY_USED');
  if (status === 'voided') throw new AppError('VOUCHER_VOIDED');
  throw new AppError('VOUCHER_EXPIRED');
}

/** 16 characters of the unambiguous alphabet, uniformly (bytes past a multiple of 31 are redrawn). */
function newCode(): string {
  const n = VOUCHER_CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  let code = '';
  while (code.length < VOUCHER_CODE_LENGTH) {
    for (const byte of randomBytes(VOUCHER_CODE_LENGTH * 2)) {
      if (byte < limit && code.length < VOUCHER_CODE_LENGTH) code += VOUCHER_CODE_ALPHABET[byte % n];
    }
  }
  return code;
}

/**
 * `at` plus `months` calendar months in Beijing time, at the same time of day; a day the target
 * month lacks becomes its last day (30 November + 3 months = 28 or 29 February).
 */
export function addBeijingMonths(at: number, months: number): number {
  const local = new Date(at + BEIJING_OFFSET_MS);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const timeOfDay = (at + BEIJING_OFFSET_MS) % 86_400_000;
  return Date.UTC(year, month, Math.min(local.getUTCDate(), lastDay)) + timeOfDay - BEIJING_OFFSET_MS;
}

function voucherView(row: repo.VoucherRow, now: number): VoucherView {
  const expiresAt = Number(row.expires_at);
  return {
    id: Number(row.id),
    code: row.code,
    amountFen: Number(row.amount_fen),
    accountId: row.account_id === null ? null : Number(row.account_id),
    status: row.status === 'unused' && expiresAt <= now ? 'expired' : row.status,
    reason: row.reason,
    issuedAt: Number(row.issued_at),
    expiresAt,
    usedAt: row.used_at === null ? null : Number(row.used_at),
  };
}
