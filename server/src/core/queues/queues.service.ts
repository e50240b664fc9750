import type { PauseView } from '@herald/shared';
import { AppError, type QueueConditions, type QueueDetail, type QueueSuspendInput } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { findApiUser } from '../api-users/api-users.repo.ts';
import type { Caller } from '../context.ts';
import { findLabel } from '../labels/labels.repo.ts';
import * as repo from './queues.repo.ts';

const DAY_MS = 86_400_000;
/** Finished recipients of messages accepted within this window still count on the monitor. */
export const QUEUE_ACTIVITY_WINDOW_MS = DAY_MS;
/** Statuses counted as `process`: being delivered. */
export const PROCESS_STATUSES: readonly string[] = ['sending', 'deferred', 'held'];
/** Statuses that are still in the queue (waiting or being delivered). */
export const UNFINISHED_STATUSES: readonly string[] = ['requested', ...PROCESS_STATUSES];
/** Statuses counted as `out`: finished. */
export const FINISHED_STATUSES: readonly string[] = ['delivered', 'soft_bounce', 'invalid', 'deleted'];

const pauseView = (row: repo.PauseRow): PauseView => ({
  id: Number(row.id),
  apiUserId: row.api_user_id === null ? null : Number(row.api_user_id),
  domain: row.domain,
  labelId: row.label_id === null ? null : Number(row.label_id),
  startAt: Number(row.starts_at),
  recoverAt: row.recover_at === null ? null : Number(row.recover_at),
  expiresAt: row.expires_at === null ? null : Number(row.expires_at),
  createdAt: Number(row.created_at),
});

/** When a pause stops holding mail: its recover time, or its automatic deletion. */
export const pauseEnd = (p: PauseView): number => p.recoverAt ?? p.expiresAt ?? Number.MAX_SAFE_INTEGER;

/** Whether a pause holds mail of this API_USER and domain (a label-only pause holds part of it). */
export function pauseCovers(p: PauseView, apiUserId: number | null, domain: string): boolean {
  return (p.apiUserId === null || p.apiUserId === apiUserId) && (p.domain === null || p.domain === domain);
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * Queue management (`/mail/queues`). A queue is the mail of one API_USER from one sending domain;
 * its counters come from message_recipients: `in` every recipient accepted within the activity
 * window or still unfinished, `process` those being delivered (sending, deferred, held), `out`
 * those finished. A pause holds the queues its conditions name (null = all) from its start until
 * its recover time; one without a recover time ends when the periodic task deletes it,
 * `pauseMaxDays` after it started. Suspending with the same conditions over an overlapping span
 * replaces the old pause. Resuming lifts the pauses and makes the held recipients due now; the
 * pipeline asks the policy again when it claims them, so mail still in a do-not-disturb window or
 * under another pause is held again rather than sent.
 */
export class QueuesService {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly pauseMaxDays: number;
  private readonly ttlMs: number;
  private readonly cache = new Map<number, { at: number; value: Promise<PauseView[]> }>();

  constructor(
    database: Database,
    options: { now?: () => number; pauseMaxDays?: number; ttlMs?: number } = {},
  ) {
    this.database = database;
    this.now = options.now ?? Date.now;
    this.pauseMaxDays = options.pauseMaxDays ?? 7;
    this.ttlMs = options.ttlMs ?? 5000;
  }

  async list(
    { accountId }: Caller,
    filter: QueueConditions = {},
  ): Promise<{ queues: QueueDetail[]; pauses: PauseView[] }> {
    await this.checkConditions(accountId, filter);
    const now = this.now();
    const [counts, names, pauses] = await Promise.all([
      repo.countRecipients(
        this.database,
        accountId,
        filter,
        now - QUEUE_ACTIVITY_WINDOW_MS,
        UNFINISHED_STATUSES,
      ),
      repo.apiUserNames(this.database, accountId),
      this.listPauses(accountId),
    ]);
    const current = pauses.filter((p) => pauseEnd(p) > now);
    const queues = new Map<string, QueueDetail>();
    const queueOf = (apiUserId: number | null, domain: string): QueueDetail => {
      const key = `${apiUserId ?? ''}\u0000${domain}`;
      let queue = queues.get(key);
      if (!queue) {
        queue = {
          apiUserId,
          apiUserName: apiUserId === null ? '' : (names.get(apiUserId) ?? ''),
          categoryId: apiUserId,
          domain,
          in: 0,
          process: 0,
          out: 0,
          paused: false,
          pauses: [],
        };
        queues.set(key, queue);
      }
      return queue;
    };
    for (const row of counts) {
      const queue = queueOf(row.api_user_id, domainOf(row.from_address));
      queue.in += row.n;
      if (PROCESS_STATUSES.includes(row.status)) queue.process += row.n;
      else if (FINISHED_STATUSES.includes(row.status)) queue.out += row.n;
    }
    for (const p of current) {
      const matchesFilter =
        (!filter.apiUserId || p.apiUserId === filter.apiUserId) &&
        (!filter.domain || p.domain === filter.domain);
      if (p.apiUserId !== null && p.domain !== null && matchesFilter) queueOf(p.apiUserId, p.domain);
    }
    for (const queue of queues.values()) {
      const covering = current.filter(
        (p) =>
          pauseCovers(p, queue.apiUserId, queue.domain) &&
          (!filter.labelId || p.labelId === null || p.labelId === filter.labelId),
      );
      queue.pauses = covering.map((p) => ({
        id: p.id,
        labelId: p.labelId,
        startAt: p.startAt,
        recoverAt: p.recoverAt,
      }));
      queue.paused = covering.some((p) => p.startAt <= now);
    }
    const sorted = [...queues.values()].sort(
      (a, b) => a.apiUserName.localeCompare(b.apiUserName) || a.domain.localeCompare(b.domain),
    );
    return { queues: sorted, pauses: current };
  }

  async suspend(
    { accountId }: Caller,
    input: QueueSuspendInput,
  ): Promise<{ pause: PauseView; replaced: number }> {
    await this.checkConditions(accountId, input);
    const now = this.now();
    const startsAt = input.startAt ?? now;
    const recoverAt = input.recoverAt ?? null;
    const expiresAt = recoverAt === null ? Math.max(startsAt, now) + this.pauseMaxDays * DAY_MS : null;
    const row = {
      api_user_id: input.apiUserId ?? null,
      domain: input.domain ?? null,
      label_id: input.labelId ?? null,
      starts_at: startsAt,
      recover_at: recoverAt,
      expires_at: expiresAt,
      created_at: now,
    };
    const { id, replaced } = await repo.replacePause(
      this.database,
      accountId,
      row,
      recoverAt ?? expiresAt ?? now,
    );
    this.invalidate({ accountId });
    return { pause: pauseView({ id, ...row }), replaced };
  }

  /**
   * Lifts every pause holding the queue these conditions name (a pause for all API_USERs also
   * holds one API_USER's queue) and makes its held recipients due now.
   */
  async resume(
    { accountId }: Caller,
    conditions: QueueConditions,
  ): Promise<{ lifted: number; released: number }> {
    await this.checkConditions(accountId, conditions);
    const pauses = await repo.listPauses(this.database, accountId);
    const lifting = pauses
      .map(pauseView)
      .filter(
        (p) =>
          (p.apiUserId === null || !conditions.apiUserId || p.apiUserId === conditions.apiUserId) &&
          (p.domain === null || !conditions.domain || p.domain === conditions.domain) &&
          (p.labelId === null || !conditions.labelId || p.labelId === conditions.labelId),
      );
    if (lifting.length === 0) throw new AppError('QUEUE_NOT_PAUSED');
    const lifted = await repo.deletePauses(
      this.database,
      accountId,
      lifting.map((p) => p.id),
    );
    this.invalidate({ accountId });
    let released = 0;
    for (const p of lifting) {
      released += await repo.releaseHeld(
        this.database,
        accountId,
        { conditions: conditionsOf(p) },
        this.now(),
      );
    }
    return { lifted, released };
  }

  /** Lifts one pause by id (the console's "recover paused queue"). */
  async recover({ accountId }: Caller, pauseId: number): Promise<{ released: number }> {
    const row = await repo.findPause(this.database, accountId, pauseId);
    if (!row) throw new AppError('QUEUE_PAUSE_NOT_FOUND');
    await repo.deletePauses(this.database, accountId, [pauseId]);
    this.invalidate({ accountId });
    const p = pauseView(row);
    const released = await repo.releaseHeld(
      this.database,
      accountId,
      { conditions: conditionsOf(p) },
      this.now(),
    );
    return { released };
  }

  /** Queued recipients (waiting, deferred or held) of the queue become `deleted`; in flight ones finish. */
  async deleteQueued({ accountId }: Caller, conditions: QueueConditions): Promise<{ deleted: number }> {
    await this.checkConditions(accountId, conditions);
    return { deleted: await repo.deleteQueued(this.database, accountId, conditions, this.now()) };
  }

  /** Deletes pauses that have ended (recover time passed, or no recover time and past expiry). */
  async expirePauses(): Promise<number> {
    const ended = await repo.deleteEndedPauses(this.database, this.now());
    for (const p of ended) this.invalidate({ accountId: p.account_id });
    return ended.length;
  }

  /** The account's pauses, cached for the delivery hot path. */
  activePauses({ accountId }: Caller): Promise<PauseView[]> {
    const now = this.now();
    const cached = this.cache.get(accountId);
    if (cached && now - cached.at < this.ttlMs) return cached.value;
    if (this.cache.size > 10_000) this.cache.clear();
    const value = this.listPauses(accountId);
    this.cache.set(accountId, { at: now, value });
    value.catch(() => this.cache.delete(accountId));
    return value;
  }

  invalidate({ accountId }: Caller): void {
    this.cache.delete(accountId);
  }

  private async listPauses(accountId: number): Promise<PauseView[]> {
    return (await repo.listPauses(this.database, accountId)).map(pauseView);
  }

  /** Conditions naming another account's API_USER, label or domain are a 404, as for any object. */
  private async checkConditions(accountId: number, c: QueueConditions): Promise<void> {
    if (c.apiUserId && !(await findApiUser(this.database, accountId, c.apiUserId))) {
      throw new AppError('API_USER_NOT_FOUND');
    }
    if (c.labelId && !(await findLabel(this.database, accountId, c.labelId, 'email'))) {
      throw new AppError('LABEL_NOT_FOUND');
    }
    if (c.domain && !(await repo.ownsDomain(this.database, accountId, c.domain))) {
      throw new AppError('DOMAIN_NOT_FOUND');
    }
  }
}

/** The recipients a lifted pause held: everything its conditions name. */
function conditionsOf(p: PauseView): repo.Conditions {
  return { apiUserId: p.apiUserId, domain: p.domain, labelId: p.labelId };
}
