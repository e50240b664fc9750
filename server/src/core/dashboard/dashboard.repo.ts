import type { Database } from '../../db/database.ts';

/** SQL of the beginner guide: does the account have each thing yet. Each is one indexed EXISTS-style probe. */

async function any(query: { executeTakeFirst(): Promise<unknown> }): Promise<boolean> {
  return (await query.executeTakeFirst()) !== undefined;
}

export function hasMessageFrom({ db }: Database, accountId: number, sources: ('api' | 'smtp' | 'test')[]) {
  return any(
    db
      .selectFrom('messages')
      .select('id')
      .where('account_id', '=', accountId)
      .where('source', 'in', sources)
      .limit(1),
  );
}

/** A domain that can send (usable: SPF, DKIM and MX pass; DMARC, which is optional, not needed). */
export function hasUsableDomain({ db }: Database, accountId: number) {
  return any(
    db
      .selectFrom('sending_domains')
      .select('id')
      .where('account_id', '=', accountId)
      .where('status', 'in', ['usable', 'verified'])
      .limit(1),
  );
}

export function hasApiUser({ db }: Database, accountId: number) {
  return any(db.selectFrom('api_users').select('id').where('account_id', '=', accountId).limit(1));
}

export function hasSmsUser({ db }: Database, accountId: number) {
  return any(db.selectFrom('sms_users').select('id').where('account_id', '=', accountId).limit(1));
}

export function hasPassedSign({ db }: Database, accountId: number) {
  return any(
    db
      .selectFrom('sms_signs')
      .select('id')
      .where('account_id', '=', accountId)
      .where('status', '=', 'passed')
      .limit(1),
  );
}

export function hasPassedSmsTemplate({ db }: Database, accountId: number) {
  return any(
    db
      .selectFrom('sms_templates')
      .select('id')
      .where('account_id', '=', accountId)
      .where('status', '=', 'passed')
      .limit(1),
  );
}

export function hasSmsFrom({ db }: Database, accountId: number, source: 'api' | 'console') {
  return any(
    db
      .selectFrom('sms_messages')
      .select('id')
      .where('account_id', '=', accountId)
      .where('source', '=', source)
      .limit(1),
  );
}
