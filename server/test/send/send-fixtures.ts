import { randomBytes } from 'node:crypto';
import { hashApiKey } from '../../src/core/api-users/api-user-auth.ts';
import type { Database } from '../../src/db/database.ts';

/**
 * Sending set-up written straight to the tables the send path reads (sending domains, API_USERs
 * and keys, labels, templates), so these tests need neither DNS nor the console flows.
 */
export interface SendFixture {
  accountId: number;
  apiUserId: number;
  apiUser: string;
  apiKey: string;
  domain: string;
  labelId: number;
}

let counter = 0;

export async function createSendFixture(
  database: Database,
  options: {
    plan?: 'free' | 'paid';
    dailyQuota?: number | null;
    cType?: 'normal' | 'test';
    domainStatus?: 'unverified' | 'usable' | 'verified';
    name?: string;
    /** An existing account (e.g. one with a console owner) instead of a new one. */
    accountId?: number;
  } = {},
): Promise<SendFixture> {
  const db = database.db;
  const now = Date.now();
  counter += 1;
  const tag = `${process.pid}${counter}${randomBytes(2).toString('hex')}`;
  const account =
    options.accountId !== undefined
      ? { id: options.accountId }
      : await db
          .insertInto('accounts')
          .values({
            username: `sender${tag}`,
            plan: options.plan ?? 'paid',
            daily_quota: options.dailyQuota ?? null,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
  const accountId = Number(account.id);
  const domain = `mail${tag}.example.com`;
  const domainRow = await db
    .insertInto('sending_domains')
    .values({
      account_id: accountId,
      name: domain,
      status: options.domainStatus ?? 'verified',
      dkim_selector: 's1',
      dkim_public_key: 'MIIB',
      dkim_private_key_sealed: 'sealed',
      verify_key: 'vk',
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
  const apiUser = options.name ?? `sender_${tag}`;
  const apiUserRow = await db
    .insertInto('api_users')
    .values({
      account_id: accountId,
      name: apiUser,
      email_type: 'trigger',
      c_type: options.cType ?? 'normal',
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
  return { accountId, apiUserId: Number(apiUserRow.id), apiUser, apiKey, domain, labelId: Number(label.id) };
}

export async function addTemplate(
  database: Database,
  accountId: number,
  invokeName: string,
  status: 'unsubmitted' | 'reviewing' | 'passed' | 'rejected',
  subject = 'Hello %name%',
): Promise<number> {
  const now = Date.now();
  const row = await database.db
    .insertInto('email_templates')
    .values({
      account_id: accountId,
      name: invokeName,
      invoke_name: invokeName,
      template_type: 'trigger',
      subject,
      html: '<p>Dear %name%, your code is %code%</p>',
      status,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
