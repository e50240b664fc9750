import {
  type DnsServer,
  type SmtpMx,
  type SmtpMxOptions,
  startDnsServer,
  startSmtpMx,
} from '@herald/test-peers';
import type { KeyCaller } from '../../src/core/context.ts';
import { createDkimKey, dkimRecordValue } from '../../src/core/domains/dkim-key.ts';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * The delivery pipeline end to end: a real core (real database, the accept path), the delivery
 * loop, a loopback DNS peer answering the MX of `dest.test` and a loopback SMTP peer as that MX.
 * Each sender gets a real DKIM key whose public half the DNS peer publishes, so mailauth can
 * verify the signatures of what the peer caught.
 */
export interface PipelineHarness {
  t: TestApp;
  dns: DnsServer;
  mx: SmtpMx;
  sender: Sender & { caller: KeyCaller; dkimTxt: Record<string, string> };
  /** Another account with its own verified domain, DKIM key and API_USER. */
  addSender(): Promise<Sender & { caller: KeyCaller }>;
  /** Accepts one mail through core.send and returns its emailIds. */
  send(fields: Record<string, string>, caller?: KeyCaller): Promise<string[]>;
  recipient(emailId: string): Promise<Record<string, unknown>>;
  attempts(emailId: string): Promise<Record<string, unknown>[]>;
  waitForStatus(emailId: string, status: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startPipeline(
  options: {
    env?: Record<string, string>;
    mx?: SmtpMxOptions;
    emailType?: 'trigger' | 'batch';
    start?: boolean;
    /** Serve the HTTP API (/apiv2 and the console API) too. */
    api?: boolean;
  } = {},
): Promise<PipelineHarness> {
  const dns = await startDnsServer();
  const mx = await startSmtpMx(options.mx);
  dns.set('dest.test', 'MX', [{ priority: 10, exchange: 'mx.dest.test' }]);
  dns.set('mx.dest.test', 'A', ['127.0.0.1']);
  const t = await buildTestApp({
    api: options.api ?? false,
    env: {
      HERALD_DNS_SERVERS: dns.address,
      HERALD_MTA_PORT: String(mx.port),
      HERALD_HOSTNAME: 'herald.test',
      HERALD_PUBLIC_URL: 'https://herald.test',
      HERALD_RETRY_FIRST_MS: '300',
      HERALD_DELIVERY_POLL_MS: '50',
      HERALD_SMTP_CLIENT_TIMEOUT_MS: '5000',
      ...options.env,
    },
  });
  const emailType = options.emailType ?? 'trigger';
  const dkimTxt: Record<string, string> = {};
  const addSender = async () => {
    const fixture = await createSender(t.core.database);
    const key = await createDkimKey(t.core.secretBox, fixture.accountId);
    await t.core.database.db
      .updateTable('sending_domains')
      .set({
        dkim_selector: key.selector,
        dkim_public_key: key.publicKey,
        dkim_private_key_sealed: key.privateKeySealed,
      })
      .where('account_id', '=', fixture.accountId)
      .execute();
    await t.core.database.db
      .updateTable('api_users')
      .set({ email_type: emailType })
      .where('id', '=', fixture.apiUserId)
      .execute();
    dkimTxt[`${key.selector}._domainkey.${fixture.domain}`] = dkimRecordValue(key.publicKey);
    const caller: KeyCaller = {
      accountId: fixture.accountId,
      apiUser: { id: fixture.apiUserId, name: fixture.apiUser, emailType, cType: 'normal', domainId: null },
    };
    return { ...fixture, caller };
  };
  const { caller, ...fixture } = await addSender();
  if (options.start !== false) t.core.delivery.start();

  const recipient = async (emailId: string) =>
    (await t.core.database.db
      .selectFrom('message_recipients')
      .selectAll()
      .where('email_id', '=', emailId)
      .executeTakeFirstOrThrow()) as unknown as Record<string, unknown>;
  return {
    t,
    dns,
    mx,
    sender: { ...fixture, caller, dkimTxt },
    addSender,
    async send(fields, who = caller) {
      const result = await t.core.send.send(who, {
        from: `news@${fixture.domain}`,
        fromName: 'News',
        ...fields,
      });
      return result.emailIdList;
    },
    recipient,
    async attempts(emailId) {
      const row = await recipient(emailId);
      return (await t.core.database.db
        .selectFrom('recipient_attempts')
        .selectAll()
        .where('recipient_id', '=', Number(row.id))
        .orderBy('id')
        .execute()) as unknown as Record<string, unknown>[];
    },
    waitForStatus(emailId, status, timeoutMs = 10_000) {
      return waitFor(
        `${emailId} to be ${status}`,
        async () => {
          const row = await recipient(emailId);
          return row.status === status ? row : undefined;
        },
        { timeoutMs, intervalMs: 25 },
      );
    },
    async close() {
      await t.close();
      await Promise.all([dns.close(), mx.close()]);
    },
  };
}
