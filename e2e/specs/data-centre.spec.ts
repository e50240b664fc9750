import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  type DnsServer,
  type Herald,
  type SmtpMx,
  startDnsServer,
  startHerald,
  startSmtpMx,
} from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { hashApiKey } from '../../server/src/core/api-users/api-user-auth.ts';
import { createDkimKey } from '../../server/src/core/domains/dkim-key.ts';
import { loadSecretKey, SecretBox } from '../../server/src/core/security/secret-box.ts';
import { openDatabase } from '../../server/src/db/database.ts';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { logIn, waitForShell } from '../harness/console.ts';

/**
 * The email data centre against a real Herald (all roles, so the worker's statistics loop runs):
 * mail sent through /apiv2/mail/send really travels to a loopback MX (two delivered, one refused
 * as unknown); once the rollups have caught up, /data/send draws its chart and shows the figures
 * in its totals and table, and /data/deliveryTime shows the delivered mail in its buckets.
 */
const SENDING_DOMAIN = 'mail.e2e-stats.example';
const RECIPIENT_DOMAIN = 'inbox.e2e-stats.example';
const API_USER = 'e2e_stats_sender';
const API_KEY = randomBytes(24).toString('base64url');

let dns: DnsServer;
let mx: SmtpMx;
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  [dns, mx] = await Promise.all([startDnsServer(), startSmtpMx()]);
  dns.set(RECIPIENT_DOMAIN, 'MX', [{ priority: 10, exchange: `mx.${RECIPIENT_DOMAIN}` }]);
  dns.set(`mx.${RECIPIENT_DOMAIN}`, 'A', ['127.0.0.1']);
  const consoleDir = process.env.HERALD_CONSOLE_DIR;
  [herald, browser] = await Promise.all([
    startHerald({
      env: {
        HERALD_DNS_SERVERS: dns.address,
        HERALD_MTA_PORT: String(mx.port),
        HERALD_HOSTNAME: 'herald.test',
        ...(consoleDir ? { HERALD_CONSOLE_DIR: consoleDir } : {}),
      },
    }),
    launchBrowser(),
  ]);
  owner = await createTestUser(herald);
  const database = openDatabase({ kind: 'sqlite', file: path.join(herald.dataDir, 'herald.db') });
  try {
    const db = database.db;
    const { account_id } = await db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    const now = Date.now();
    // A real DKIM key sealed with this Herald's own key, so the pipeline signs and sends.
    const key = await createDkimKey(
      new SecretBox(loadSecretKey({ dataDir: herald.dataDir, secretKey: undefined })),
      Number(account_id),
    );
    const domain = await db
      .insertInto('sending_domains')
      .values({
        account_id,
        name: SENDING_DOMAIN,
        status: 'verified',
        dkim_selector: key.selector,
        dkim_public_key: key.publicKey,
        dkim_private_key_sealed: key.privateKeySealed,
        verify_key: 'e2e-stats',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const apiUser = await db
      .insertInto('api_users')
      .values({
        account_id,
        name: API_USER,
        email_type: 'trigger',
        c_type: 'normal',
        domain_id: Number(domain.id),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('api_keys')
      .values({
        account_id,
        api_user_id: Number(apiUser.id),
        key_hash: hashApiKey(API_KEY),
        key_hint: API_KEY.slice(-4),
        created_at: now,
      })
      .execute();
  } finally {
    await database.close();
  }
});

after(async () => {
  await browser?.close();
  await herald?.stop();
  await Promise.all([dns?.close(), mx?.close()]);
});

async function apiv2(action: string, fields: Record<string, string>) {
  const res = await fetch(`${herald.url}/apiv2/${action}`, {
    method: 'POST',
    body: new URLSearchParams({ apiUser: API_USER, apiKey: API_KEY, ...fields }),
  });
  return (await res.json()) as { result: boolean; message: string; info: Record<string, never> };
}

test('after sends, the send data and delivery time screens show the figures', (t) =>
  withPage(browser, t, async (page) => {
    mx.script(`nobody@${RECIPIENT_DOMAIN}`, { rcpt: { code: 550, message: '5.1.1 user unknown' } });
    const sent = await apiv2('mail/send', {
      from: `news@${SENDING_DOMAIN}`,
      to: `ann@${RECIPIENT_DOMAIN};bob@${RECIPIENT_DOMAIN};nobody@${RECIPIENT_DOMAIN}`,
      subject: 'Figures',
      html: '<p>Hi</p>',
    });
    assert.equal(sent.result, true, sent.message);
    await mx.waitForMessages(2, 30_000);

    // The rollups catch up within the loop's idle interval; statday/list reads them.
    const deadline = Date.now() + 30_000;
    let figures: Record<string, number> = {};
    while (Date.now() < deadline) {
      figures = (await apiv2('statday/list', { days: '1', aggregate: '1' })).info.data ?? {};
      if (figures.deliveredNum === 2 && figures.invalidEmailsNum === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.deepEqual([figures.requestNum, figures.deliveredNum, figures.invalidEmailsNum], [3, 2, 1]);

    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/data/send`);
    await waitForShell(page);
    await page.locator('.send-data-page [data-chart-ready="true"]').waitFor({ timeout: 30_000 });
    const totals = page.locator('.send-totals');
    await totals.waitFor();
    const totalText = (await totals.textContent()) ?? '';
    assert.match(totalText, /请求数\s*3/);
    assert.match(totalText, /送达数\s*2/);
    assert.match(totalText, /送达率\s*66\.67%/);
    const today = page.locator('.send-data-table tbody tr.ant-table-row').first();
    const cells = await today.locator('td').allTextContents();
    assert.deepEqual(cells.slice(1, 4), ['3', '2', '66.67%']);

    await page.goto(`${herald.url}/data/deliveryTime`);
    await page.locator('.delivery-time-page [data-chart-ready="true"]').first().waitFor({ timeout: 30_000 });
    const row = page.locator('.delivery-time-table tbody tr.ant-table-row').first();
    await row.waitFor();
    const dayCells = await row.locator('td').allTextContents();
    assert.equal(dayCells[1], '2', 'two deliveries that day');
    const inBuckets = dayCells
      .slice(2)
      .reduce((sum, cell) => sum + Number(/^(\d+) /.exec(cell)?.[1] ?? 0), 0);
    assert.equal(inBuckets, 2, `the buckets hold both: ${dayCells.join(' | ')}`);
    await page.getByRole('tab', { name: '按收件域名' }).click();
    await page
      .locator('.delivery-time-domains tbody tr.ant-table-row', { hasText: RECIPIENT_DOMAIN })
      .waitFor();
  }));
