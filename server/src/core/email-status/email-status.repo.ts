import type { Database } from '../../db/database.ts';

/** SQL of the email status view: message_recipients with their message, API_USER and send log. */

export interface StatusFilter {
  from: number;
  to: number;
  /** Exact recipient addresses. */
  emails?: string[] | undefined;
  emailIds?: string[] | undefined;
  apiUserIds?: number[] | undefined;
  labelIds?: number[] | undefined;
  statuses?: string[] | undefined;
}

function filtered({ db }: Database, accountId: number, f: StatusFilter) {
  let q = db
    .selectFrom('message_recipients as r')
    .innerJoin('messages as m', 'm.id', 'r.message_id')
    .where('r.account_id', '=', accountId)
    .where('r.created_at', '>=', f.from)
    .where('r.created_at', '<=', f.to);
  if (f.emails?.length) q = q.where('r.recipient', 'in', f.emails);
  if (f.emailIds?.length) q = q.where('r.email_id', 'in', f.emailIds);
  if (f.apiUserIds?.length) q = q.where('m.api_user_id', 'in', f.apiUserIds);
  if (f.labelIds?.length) q = q.where('m.label_id', 'in', f.labelIds);
  if (f.statuses?.length) q = q.where('r.status', 'in', f.statuses);
  return q;
}

export async function listStatuses(
  database: Database,
  accountId: number,
  f: StatusFilter,
  page: { offset: number; limit: number },
) {
  return filtered(database, accountId, f)
    .leftJoin('api_users as a', 'a.id', 'm.api_user_id')
    .select([
      'r.id',
      'r.email_id',
      'r.recipient',
      'r.kind',
      'r.status',
      'r.sub_status',
      'r.reason',
      'r.last_reply',
      'r.attempts',
      'r.delivered_at',
      'r.created_at',
      'r.updated_at',
      'm.message_id',
      'm.subject',
      'm.from_address',
      'm.email_type',
      'm.api_user_id',
      'm.label_id',
      'a.name as api_user',
    ])
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

export type StatusRow = Awaited<ReturnType<typeof listStatuses>>[number];

export async function countStatuses(database: Database, accountId: number, f: StatusFilter): Promise<number> {
  const row = await filtered(database, accountId, f)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The send log of the given recipients (already scoped to the account by the caller's ids). */
export async function attemptsOf({ db }: Database, accountId: number, recipientIds: number[]) {
  if (recipientIds.length === 0) return [];
  return db
    .selectFrom('recipient_attempts')
    .select([
      'recipient_id',
      'attempt',
      'at',
      'outcome',
      'category',
      'reason',
      'sub_status',
      'reply',
      'mx_host',
      'mx_ip',
      'tls',
      'duration_ms',
    ])
    .where('account_id', '=', accountId)
    .where('recipient_id', 'in', recipientIds)
    .orderBy('at')
    .orderBy('id')
    .execute();
}

export type AttemptRow = Awaited<ReturnType<typeof attemptsOf>>[number];

export async function findByEmailId({ db }: Database, accountId: number, emailId: string) {
  const row = await db
    .selectFrom('message_recipients')
    .select(['created_at'])
    .where('account_id', '=', accountId)
    .where('email_id', '=', emailId)
    .executeTakeFirst();
  return row ? Number(row.created_at) : undefined;
}
