import {
  AppError,
  SMS_PAUSE_EXPIRY_DAYS,
  type SmsPauseAlerts,
  type SmsPauseStatus,
  type SmsPauseView,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller, UserCaller } from '../context.ts';
import * as repo from './sms-pauses.repo.ts';

const DAY = 24 * 3600_000;
const EXPIRY_MS = SMS_PAUSE_EXPIRY_DAYS * DAY;
const CANCEL_REASON = 'anti-bombing pause cancelled';
const EXPIRE_REASON = `anti-bombing pause not handled for ${SMS_PAUSE_EXPIRY_DAYS} days`;

const view = (row: repo.PauseRow): SmsPauseView => ({
  id: Number(row.id),
  templateId: Number(row.template_id),
  templateName: row.template_name,
  msgType: Number(row.msg_type),
  status: row.status,
  pausedCount: Number(row.paused_count),
  startedAt: Number(row.started_at),
  lastRequestAt: Number(row.last_request_at),
  handledAt: row.handled_at === null ? null : Number(row.handled_at),
  expiresAt: row.status === 'paused' ? Number(row.last_request_at) + EXPIRY_MS : null,
});

/**
 * Template pauses of anti-bombing (`/sms/suspend`, product-spec §3-4). Sending opens them
 * (`guardTemplates`, in the accepting transaction); here the account continues one (its held SMS
 * are sent), cancels one (they fail with 470), and Herald cancels those left alone for
 * SMS_PAUSE_EXPIRY_DAYS without a new request. Either way later requests of the template are no
 * longer held by it.
 */
export class SmsPausesService {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly onReleased: () => void;

  constructor(database: Database, options: { now?: () => number; onReleased?: () => void } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
    this.onReleased = options.onReleased ?? (() => {});
  }

  async list(
    { accountId }: Caller,
    query: { status?: SmsPauseStatus | undefined; page: number; pageSize: number },
  ): Promise<{ total: number; list: SmsPauseView[] }> {
    const { rows, total } = await repo.listPauses(this.database, accountId, {
      status: query.status,
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize,
    });
    return { total, list: rows.map(view) };
  }

  /** The dashboards' alert panel: the open pauses (at most 5 shown) and what they hold. */
  async alerts(caller: Caller): Promise<SmsPauseAlerts> {
    const { rows, total } = await repo.listPauses(this.database, caller.accountId, {
      status: 'paused',
      offset: 0,
      limit: 100,
    });
    return {
      open: total,
      held: rows.reduce((sum, r) => sum + Number(r.paused_count), 0),
      pauses: rows.slice(0, 5).map(view),
    };
  }

  /** Continue: the held SMS are sent now. */
  async continue(caller: UserCaller, id: number): Promise<SmsPauseView> {
    await this.close(caller.accountId, id, 'continued', caller.userId, (scoped, now) =>
      repo.releaseHeld(scoped, id, now),
    );
    this.onReleased();
    return this.get(caller, id);
  }

  /** Cancel: the held SMS become processing failures (470). */
  async cancel(caller: UserCaller, id: number): Promise<SmsPauseView> {
    await this.close(caller.accountId, id, 'cancelled', caller.userId, (scoped, now) =>
      repo.failHeld(scoped, id, CANCEL_REASON, now),
    );
    return this.get(caller, id);
  }

  /** The periodic job: cancels the pauses nobody handled and no request renewed; how many. */
  async expireStale(now: number = this.now()): Promise<number> {
    let expired = 0;
    for (const id of await repo.stalePauses(this.database, now - EXPIRY_MS)) {
      const accountId = await repo.accountOfPause(this.database, id);
      if (accountId === undefined) continue;
      const closed = await this.close(accountId, id, 'expired', null, (scoped, at) =>
        repo.failHeld(scoped, id, EXPIRE_REASON, at),
      ).then(
        () => true,
        (error: unknown) => {
          if (error instanceof AppError) return false;
          throw error;
        },
      );
      if (closed) expired += 1;
    }
    await repo.pruneCounts(this.database, now);
    return expired;
  }

  private async get({ accountId }: Caller, id: number): Promise<SmsPauseView> {
    const row = await repo.findPause(this.database, accountId, id);
    if (!row) throw new AppError('SMS_PAUSE_NOT_FOUND');
    return view(row);
  }

  /**
   * Closes an open pause of this account and settles its held SMS in the same transaction, so a
   * crash leaves neither a closed pause with SMS still held nor SMS settled under an open pause.
   */
  private async close(
    accountId: number,
    id: number,
    status: SmsPauseStatus,
    handledBy: number | null,
    settle: (scoped: Database, now: number) => Promise<number>,
  ): Promise<void> {
    const now = this.now();
    await this.database.db.transaction().execute(async (trx) => {
      const scoped = { ...this.database, db: trx };
      const row = await repo.findPause(scoped, accountId, id);
      if (!row) throw new AppError('SMS_PAUSE_NOT_FOUND');
      if (!(await repo.closePause(scoped, id, { status, handledAt: now, handledBy }))) {
        throw new AppError('SMS_PAUSE_HANDLED');
      }
      await settle(scoped, now);
    });
  }
}
