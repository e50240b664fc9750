import { randomUUID } from 'node:crypto';
import {
  type AdjustmentInput,
  AppError,
  adjustmentInputSchema,
  type BalancePoint,
  BEIJING_OFFSET_MS,
  type LedgerEntryView,
  type PriceView,
  priceInputSchema,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import { MailEventsService } from '../mail-events/mail-events.service.ts';
import { BalanceGate } from './balance-gate.ts';
import { noticeLowBalances } from './balance-notices.ts';
import { chargeMailEvents, chargeSmsBatch, MAIL_CHARGING_CURSOR } from './charging.ts';
import * as repo from './ledger.repo.ts';

const DAY_MS = 86_400_000;

/**
 * The money ledger (issue 18): balances as the sum of immutable entries, operator adjustments
 * and prices, and charging by result (charging.ts) that the worker's charging loop drives.
 */
export class LedgerService {
  private readonly database: Database;
  private readonly mailEvents: MailEventsService;
  private readonly now: () => number;
  readonly gate: BalanceGate;

  constructor(database: Database, options: { now?: () => number; gate?: BalanceGate } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
    this.mailEvents = new MailEventsService(database);
    this.gate = options.gate ?? new BalanceGate(database, { now: this.now });
  }

  /** The account's balance in fen. */
  balance({ accountId }: Caller): Promise<number> {
    return repo.balanceOf(this.database, accountId);
  }

  /**
   * The balance at the end of each of the last `days` Beijing days, today last (so far): the
   * balance now, walked back through each day's entries. The finance screen's chart.
   */
  async balanceHistory({ accountId }: Caller, days = 30): Promise<BalancePoint[]> {
    const today = Math.floor((this.now() + BEIJING_OFFSET_MS) / DAY_MS);
    const first = today - days + 1;
    const [balance, sums] = await Promise.all([
      repo.balanceOf(this.database, accountId),
      repo.dailySums(this.database, accountId, first * DAY_MS - BEIJING_OFFSET_MS),
    ]);
    const byDay = new Map(sums.map((s) => [Number(s.day), Number(s.fen)]));
    const points: BalancePoint[] = [];
    let end = balance;
    for (let day = today; day >= first; day--) {
      points.push({ day: new Date(day * DAY_MS).toISOString().slice(0, 10), balanceFen: end });
      end -= byDay.get(day) ?? 0;
    }
    return points.reverse();
  }

  /** Tells paid accounts whose balance just fell low or ran out (balance-notices.ts). */
  noticeLowBalances(): Promise<number> {
    return noticeLowBalances(this.database, this.now());
  }

  async entries({ accountId }: Caller, limit = 100): Promise<LedgerEntryView[]> {
    const rows = await repo.listEntries(this.database, accountId, limit);
    return rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      amountFen: Number(r.amount_fen),
      reason: r.reason,
      idempotencyKey: r.idempotency_key,
      createdAt: Number(r.created_at),
    }));
  }

  /**
   * An operator's adjustment of `accountId`'s balance with a reason (`operator` null from the
   * command line). Idempotent on the input's key; answers the balance after it.
   */
  async adjust(
    operator: Caller | null,
    accountId: number,
    input: AdjustmentInput | unknown,
  ): Promise<number> {
    const parsed = adjustmentInputSchema.safeParse(input);
    if (!parsed.success) throw new AppError('LEDGER_ADJUSTMENT_INVALID');
    const { amountFen, reason, idempotencyKey } = parsed.data;
    await this.database.db.transaction().execute((trx) =>
      repo.postEntry(trx, {
        accountId,
        kind: 'adjustment',
        amountFen,
        reason,
        detail: operator ? JSON.stringify({ operatorAccount: operator.accountId }) : null,
        idempotencyKey: `adjustment:${idempotencyKey ?? randomUUID()}`,
        createdBy: operator?.userId ?? null,
        at: this.now(),
      }),
    );
    this.gate.changed(accountId);
    return repo.balanceOf(this.database, accountId);
  }

  async prices(): Promise<PriceView[]> {
    return (await repo.listPrices(this.database)).map((p) => ({
      code: p.code,
      unit: Number(p.unit),
      fen: Number(p.fen),
      updatedAt: Number(p.updated_at),
    }));
  }

  async setPrice(code: string, input: unknown): Promise<PriceView> {
    const parsed = priceInputSchema.safeParse(input);
    if (!parsed.success) throw new AppError('LEDGER_PRICE_INVALID');
    if (!(await repo.setPrice(this.database, code, parsed.data, this.now()))) {
      throw new AppError('LEDGER_PRICE_UNKNOWN', { code });
    }
    return (await this.prices()).find((p) => p.code === code) as PriceView;
  }

  /** How many accounts' balances differ from the sum of their entries: the invariant's check. */
  drift(): Promise<number> {
    return repo.countDrift(this.database);
  }

  /** Charges the next batch of mail outcomes; answers how many events were read (0: caught up). */
  chargeMail(limit: number): Promise<number> {
    return this.mailEvents.consume(MAIL_CHARGING_CURSOR, limit, (events, trx) =>
      chargeMailEvents(trx, events, this.now()),
    );
  }

  /** Charges the next batch of SMS receipts; answers how many events were read. */
  chargeSms(limit: number): Promise<number> {
    return chargeSmsBatch(this.database, limit, this.now());
  }
}
