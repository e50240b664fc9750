import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, toasts, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';

/**
 * The webhook screen against a receiver started here (node:http on loopback; the Herald process
 * allows private addresses for it): add a webhook with a generated app key, see it listed with
 * its events, send a test push and see the success, then a deliver event of the account reaches
 * the receiver through the worker's webhooks loop and shows in the delivery log.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let server: http.Server;
let receiverUrl: string;
const pushes: Record<string, string>[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      pushes.push(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  ({ herald, browser, owner } = await startConsoleTestbed({
    HERALD_WEBHOOK_ALLOW_PRIVATE: '1',
    HERALD_WEBHOOK_POLL_MS: '100',
  }));
});

after(async () => {
  await stopConsoleTestbed({ browser, herald });
  server?.closeAllConnections();
  server?.close();
});

/** A deliver event of the owner's account in the mail event log, as the outcome writer leaves one. */
async function recordDeliverEvent(recipient: string): Promise<void> {
  await withHeraldDatabase(herald, async (database) => {
    const account = await database.db
      .selectFrom('accounts')
      .select('id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto('mail_events')
      .values({
        account_id: Number(account.id),
        kind: 'deliver',
        at: Date.now(),
        message_id: 0,
        recipient_id: null,
        email_id: `e2e0$${recipient}`,
        recipient,
        recipient_domain: recipient.slice(recipient.indexOf('@') + 1),
        api_user_id: null,
        label_id: null,
        sub_status: null,
        reason: null,
        latency_ms: 800,
        data: null,
      })
      .execute();
  });
}

test('add a webhook, see it listed, test it, and read its delivery log', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendSetting/webhook?lang=en`);
    await waitForShell(page);
    await page.getByText('No webhooks yet').waitFor();

    await page.locator('.webhook-add').click();
    const modal = page.locator('.webhook-form-modal');
    await modal.locator('.webhook-url').fill('ftp://example.com/hook');
    await modal.locator('.webhook-save').click();
    await modal.getByText('The URL must begin with http:// or https://').waitFor();

    await modal.locator('.webhook-url').fill(receiverUrl);
    await modal.locator('.webhook-events').getByText('Open', { exact: true }).click();
    await modal.locator('.webhook-app-key-generate').click();
    await page.waitForFunction(
      () => (document.querySelector('.webhook-app-key') as HTMLInputElement | null)?.value.length === 32,
    );
    const appKey = await modal.locator('.webhook-app-key').inputValue();
    await modal.locator('.webhook-save').click();

    const row = page.locator('.webhooks-table tbody tr', { hasText: receiverUrl });
    await row.waitFor({ timeout: 15_000 });
    await row.locator('.webhook-event-deliver', { hasText: 'Delivered' }).waitFor();
    await row.locator('.webhook-event-open', { hasText: 'Open' }).waitFor();
    await row.getByText('Normal').waitFor();
    const probe = pushes.at(-1) ?? {};
    assert.equal(probe.test, 'true', 'the receiver got the probe on save');
    const expected = createHmac('sha256', appKey).update(`${probe.timestamp}${probe.token}`).digest('hex');
    assert.equal(probe.signature, expected, 'the probe is signed with the generated key');

    await row.locator('.webhook-test').click();
    await toasts(page, 'success').filter({ hasText: 'Test push answered HTTP 200' }).waitFor();

    await recordDeliverEvent('reader@example.com');
    await row.locator('.webhook-log').click();
    const log = page.locator('.webhook-log-drawer');
    const logged = log.locator('.webhook-log-table tbody tr', { hasText: 'reader@example.com' });
    await logged.waitFor({ timeout: 30_000 });
    assert.match((await logged.textContent()) ?? '', /200/);
    assert.ok(
      pushes.some((p) => p.event === 'deliver' && p.recipient === 'reader@example.com'),
      'the receiver got the deliver push',
    );
  }));
