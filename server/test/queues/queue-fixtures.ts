import { randomBytes } from 'node:crypto';
import { hashApiKey } from '../../src/core/api-users/api-user-auth.ts';
import type { TestApp } from '../helpers/app.ts';
import { type Caller, createOwner } from '../helpers/members.ts';

/**
 * An account owner with a session and the sending set-up the accept path needs (verified domain,
 * API_USER with a key, a label), written as rows like server/test/send/send-fixtures.ts does.
 */
export interface QueueAccount {
  owner: Caller;
  accountId: number;
  apiUserId: number;
  apiUser: string;
  apiKey: string;
  domain: string;
  labelId: number;
}

export async function createQueueAccount(t: TestApp, name: string): Promise<QueueAccount> {
  const owner = await createOwner(t, name);
  const accountId = owner.ctx.accountId;
  const db = t.core.database.db;
  const now = Date.now();
  const domain = `mail.${name.replace(/_/g, '-')}.example.com`;
  const domainRow = await db
    .insertInto('sending_domains')
    .values({
      account_id: accountId,
      name: domain,
      status: 'verified',
      dkim_selector: 's1',
      dkim_public_key: 'MIIB',
      dkim_private_key_sealed: 'sealed',
      verify_key: `vk-${name}`,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const label = await db
    .insertInto('labels')
    .values({ account_id: accountId, name: 'newsletter', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const apiUser = `${name}_api`;
  const apiUserRow = await db
    .insertInto('api_users')
    .values({
      account_id: accountId,
      name: apiUser,
      email_type: 'batch',
      c_type: 'normal',
      domain_id: Number(domainRow.id),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const apiKey = randomBytes(24).toString('base64url');
  await db
    .insertInto('api_keys')
    .values({
      account_id: accountId,
      api_user_id: Number(apiUserRow.id),
      key_hash: hashApiKey(apiKey),
      key_hint: apiKey.slice(-4),
      created_at: now,
    })
    .execute();
  return {
    owner,
    accountId,
    apiUserId: Number(apiUserRow.id),
    apiUser,
    apiKey,
    domain,
    labelId: Number(label.id),
  };
}

/** Sends through the SendCloud-compatible accept path; answers the emailIds. */
export async function sendMail(
  t: TestApp,
  a: QueueAccount,
  to: string[],
  extra: Record<string, string> = {},
): Promise<string[]> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/apiv2/mail/send',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      apiUser: a.apiUser,
      apiKey: a.apiKey,
      from: `news@${a.domain}`,
      to: to.join(';'),
      subject: 'Hello',
      html: '<p>Hi</p>',
      ...extra,
    }).toString(),
  });
  const body = res.json() as { result: boolean; message: string; info: { emailIdList?: string[] } };
  if (!body.result) throw new Error(`send failed: ${body.message}`);
  return body.info.emailIdList ?? [];
}

/** Status and due time of each recipient, by address. */
export async function recipientsOf(t: TestApp, accountId: number) {
  const rows = await t.core.database.db
    .selectFrom('message_recipients')
    .select(['recipient', 'status', 'next_attempt_at', 'reason'])
    .where('account_id', '=', accountId)
    .execute();
  return new Map(rows.map((r) => [r.recipient, { ...r, next_attempt_at: Number(r.next_attempt_at) }]));
}
