import type { Database } from '../../db/database.ts';

// The SQL of what timed tasks refer to and choose from: templates, address lists, API_USERs,
// labels and sending domains of the account.

/** Names of what tasks refer to, by id (a deleted template or list simply has none). */
export async function referencedNames(
  { db }: Database,
  accountId: number,
  ids: { templates: number[]; lists: number[]; apiUsers: number[]; labels: number[] },
) {
  const none = [-1];
  const [templates, lists, apiUsers, labels] = await Promise.all([
    db
      .selectFrom('email_templates')
      .select(['id', 'name'])
      .where('account_id', '=', accountId)
      .where('id', 'in', ids.templates.length ? ids.templates : none)
      .execute(),
    db
      .selectFrom('address_lists')
      .select(['id', 'name', 'prefix'])
      .where('account_id', '=', accountId)
      .where('id', 'in', ids.lists.length ? ids.lists : none)
      .execute(),
    db
      .selectFrom('api_users')
      .select(['id', 'name'])
      .where('account_id', '=', accountId)
      .where('id', 'in', ids.apiUsers.length ? ids.apiUsers : none)
      .execute(),
    db
      .selectFrom('labels')
      .select(['id', 'name'])
      .where('account_id', '=', accountId)
      .where('id', 'in', ids.labels.length ? ids.labels : none)
      .execute(),
  ]);
  const byId = <R extends { id: number }>(rows: R[]) => new Map(rows.map((r) => [Number(r.id), r]));
  return { templates: byId(templates), lists: byId(lists), apiUsers: byId(apiUsers), labels: byId(labels) };
}

/** What the form chooses from: passed templates, lists, batch API_USERs, email labels, usable domains. */
export async function formOptions({ db }: Database, accountId: number) {
  const [templates, lists, apiUsers, labels, domains] = await Promise.all([
    db
      .selectFrom('email_templates')
      .select(['id', 'name', 'invoke_name'])
      .where('account_id', '=', accountId)
      .where('status', '=', 'passed')
      .orderBy('id', 'desc')
      .execute(),
    db
      .selectFrom('address_lists')
      .select(['id', 'name', 'prefix', 'member_count'])
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .limit(500)
      .execute(),
    db
      .selectFrom('api_users')
      .select(['id', 'name'])
      .where('account_id', '=', accountId)
      .where('email_type', '=', 'batch')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('labels')
      .select(['id', 'name'])
      .where('account_id', '=', accountId)
      .where('channel', '=', 'email')
      .orderBy('id', 'desc')
      .execute(),
    db
      .selectFrom('sending_domains')
      .select('name')
      .where('account_id', '=', accountId)
      .where('status', 'in', ['usable', 'verified'])
      .orderBy('name')
      .execute(),
  ]);
  return { templates, lists, apiUsers, labels, domains: domains.map((d) => d.name) };
}
