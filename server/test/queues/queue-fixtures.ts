import { createSender } from '../fixtures/factory.ts';
import type { TestApp } from '../helpers/app.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';

/**
 * An account owner with a session and the sending set-up the accept path needs (verified domain,
 * API_USER with a key, a label), from the fixture factory.
 */
export interface QueueAccount {
  owner: SignedIn;
  accountId: number;
  apiUserId: number;
  apiUser: string;
  apiKey: string;
  domain: string;
  labelId: number;
}

export async function createQueueAccount(t: TestApp, name: string): Promise<QueueAccount> {
  const owner = await createOwner(t, name);
  const sender = await createSender(t.core.database, {
    accountId: owner.ctx.accountId,
    domain: `mail.${name.replace(/_/g, '-')}.example.com`,
    apiUser: `${name}_api`,
    emailType: 'batch',
  });
  return { owner, ...sender };
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
