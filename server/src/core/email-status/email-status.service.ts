import type { EmailStatus, EmailStatusQuery, EmailStatusView, SendLogEntry } from '@herald/shared';
import { apiUserIdsByName } from '../api-users/api-users.repo.ts';

export type { EmailStatusView, SendLogEntry };

import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import * as repo from './email-status.repo.ts';

/**
 * SendCloud's status numbers (Aurora emailStatus): 1 delivered, 4 invalid, 5 soft bounce, 18
 * sending. Mail still on its way (requested, sending, deferred, held) is 18; mail deleted from
 * the queue by its owner never reached anyone and reads as invalid (4, sub-status 409 other).
 */
export function sendCloudStatus(status: string): number {
  if (status === 'delivered') return 1;
  if (status === 'invalid' || status === 'deleted') return 4;
  if (status === 'soft_bounce') return 5;
  return 18;
}

/**
 * Email status (`/data/emailStatus`, SendCloud `data/emailStatus`): per-recipient status, reason,
 * sub-status and send log, over a time range of at most one month (the schema enforces it).
 */
export class EmailStatusService {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  async query(
    { accountId }: Caller,
    q: EmailStatusQuery,
  ): Promise<{ rows: EmailStatusView[]; total: number }> {
    const email = q.email?.trim();
    return this.find(
      { accountId },
      {
        from: q.startTime,
        to: q.endTime,
        emails: email ? [...new Set([email, email.toLowerCase()])] : undefined,
        emailIds: q.emailId ? [q.emailId] : undefined,
        apiUserIds: q.apiUserId ? [q.apiUserId] : undefined,
        labelIds: q.labelId ? [q.labelId] : undefined,
        statuses: q.status ? [q.status] : undefined,
      },
      (q.page - 1) * q.pageSize,
      q.pageSize,
    );
  }

  async find(
    { accountId }: Caller,
    filter: repo.StatusFilter,
    offset: number,
    limit: number,
  ): Promise<{ rows: EmailStatusView[]; total: number }> {
    const [rows, total] = await Promise.all([
      repo.listStatuses(this.database, accountId, filter, { offset, limit }),
      repo.countStatuses(this.database, accountId, filter),
    ]);
    const attempts = await repo.attemptsOf(
      this.database,
      accountId,
      rows.map((r) => Number(r.id)),
    );
    const byRecipient = new Map<number, repo.AttemptRow[]>();
    for (const a of attempts) {
      const list = byRecipient.get(Number(a.recipient_id)) ?? [];
      list.push(a);
      byRecipient.set(Number(a.recipient_id), list);
    }
    return { rows: rows.map((r) => view(r, byRecipient.get(Number(r.id)) ?? [])), total };
  }

  apiUserIdsByName({ accountId }: Caller, names: string[]): Promise<number[]> {
    return apiUserIdsByName(this.database, accountId, names);
  }
}

function num(value: number | string | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function view(r: repo.StatusRow, attempts: repo.AttemptRow[]): EmailStatusView {
  const request: SendLogEntry = {
    at: Number(r.created_at),
    event: 'request',
    attempt: 0,
    reason: null,
    subStatus: null,
    reply: null,
    mxHost: null,
    mxIp: null,
    tls: false,
    durationMs: null,
  };
  const status = r.status as EmailStatus;
  return {
    id: Number(r.id),
    emailId: r.email_id,
    messageId: r.message_id,
    recipient: r.recipient,
    kind: r.kind,
    status,
    statusCode: sendCloudStatus(status),
    subStatus: num(r.sub_status) ?? (status === 'deleted' ? 409 : null),
    reason: r.reason,
    lastReply: r.last_reply,
    subject: r.subject,
    from: r.from_address,
    emailType: r.email_type,
    apiUserId: num(r.api_user_id),
    apiUser: r.api_user ?? null,
    labelId: num(r.label_id),
    attempts: Number(r.attempts),
    requestTime: Number(r.created_at),
    modifiedTime: Number(r.updated_at),
    deliveredAt: num(r.delivered_at),
    sendLog: [
      request,
      ...attempts.map((a) => ({
        at: Number(a.at),
        event: a.outcome,
        attempt: Number(a.attempt),
        reason: a.reason,
        subStatus: num(a.sub_status),
        reply: a.reply,
        mxHost: a.mx_host,
        mxIp: a.mx_ip,
        tls: Number(a.tls) === 1,
        durationMs: num(a.duration_ms),
      })),
    ],
  };
}
