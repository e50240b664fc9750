import type { TrackType } from '@herald/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** The SQL of the open/click list: the open and click events of the mail event log. */
export interface EmailTracksFilter {
  from: number;
  to: number;
  email?: string;
  trackType?: TrackType;
  apiUserIds?: number[];
  labelIds?: number[];
}

function base(db: Kysely<DB>, accountId: number, filter: EmailTracksFilter) {
  let q = db
    .selectFrom('mail_events as e')
    .where('e.account_id', '=', accountId)
    .where('e.kind', 'in', filter.trackType ? [filter.trackType] : ['open', 'click'])
    .where('e.at', '>=', filter.from)
    .where('e.at', '<=', filter.to);
  if (filter.email) q = q.where('e.recipient', '=', filter.email);
  if (filter.apiUserIds?.length) q = q.where('e.api_user_id', 'in', filter.apiUserIds);
  if (filter.labelIds?.length) q = q.where('e.label_id', 'in', filter.labelIds);
  return q;
}

/** A page of the matching events, newest first, with their API_USER's name. */
export function listEmailTracks(
  db: Kysely<DB>,
  accountId: number,
  filter: EmailTracksFilter,
  offset: number,
  limit: number,
) {
  return base(db, accountId, filter)
    .leftJoin('api_users as u', 'u.id', 'e.api_user_id')
    .select([
      'e.id',
      'e.at',
      'e.kind',
      'e.recipient',
      'e.email_id',
      'e.api_user_id',
      'e.label_id',
      'e.data',
      'u.name as api_user',
    ])
    .orderBy('e.at', 'desc')
    .orderBy('e.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function countEmailTracks(
  db: Kysely<DB>,
  accountId: number,
  filter: EmailTracksFilter,
): Promise<number> {
  const row = await base(db, accountId, filter)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
