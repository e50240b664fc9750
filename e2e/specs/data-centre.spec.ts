import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { createDkimKey } from '../../server/src/core/domains/dkim-key.ts';
import { loadSecretKey, SecretBox } from '../../server/src/lib/secret-box.ts';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { type MxPeers, startMxPeers } from '../harness/mail-peers.ts';
import { type ApiCredentials, apiv2, sendMail, writeSendingSetup } from '../harness/sending.ts';

/**
 * The email data centre against a real Herald (all roles, so the worker's statistics loop runs):
 * mail sent through /apiv2/mail/send really travels to a loopback MX (two delivered, one refused
 * as unknown); once the rollups have caught up, /data/send draws its chart and shows the figures
 * in its totals and table, and /data/deliveryTime shows the delivered mail in its buckets.
 */
const SENDING_DOMAIN = 'mail.e2e-stats.example';
const RECIPIENT_DOMAIN = 'inbox.e2e-stats.example';

let peers: MxPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let sender: ApiCredentials;

before(async () => {
  peers = await startMxPeers([RECIPIENT_DOMAIN]);
  ({ herald, browser, owner } = await startConsoleTestbed({ ...peers.env, HERALD_HOSTNAME: 'herald.test' }));
  sender = await writeSendingSetup(herald, owner, {
    domain: SENDING_DOMAIN,
    apiUser: 'e2e_stats_sender',
    // A real DKIM key sealed with this Herald's own key, so the pipeline signs and sends.
    dkim: (accountId) =>
      createDkimKey(
        new SecretBox(loadSecretKey({ dataDir: herald.dataDir, secretKey: undefined })),
        accountId,
      ),
  });
});

after(() => stopConsoleTestbed({ browser, herald }, peers));

test('after sends, the send data and delivery time screens show the figures', (t) =>
  withPage(browser, t, async (page) => {
    peers.mx.script(`nobody@${RECIPIENT_DOMAIN}`, { rcpt: { code: 550, message: '5.1.1 user unknown' } });
    const sent = await sendMail(herald, sender, {
      from: `news@${SENDING_DOMAIN}`,
      to: `ann@${RECIPIENT_DOMAIN};bob@${RECIPIENT_DOMAIN};nobody@${RECIPIENT_DOMAIN}`,
      subject: 'Figures',
      html: '<p>Hi</p>',
    });
    assert.equal(sent.result, true, sent.message);
    await peers.mx.waitForMessages(2, 30_000);

    // The rollups catch up within the loop's idle interval; statday/list reads them.
    const deadline = Date.now() + 30_000;
    let figures: Record<string, number> = {};
    while (Date.now() < deadline) {
      const stats = await apiv2<{ data?: Record<string, number> }>(herald, sender, 'statday/list', {
        days: '1',
        aggregate: '1',
      });
      figures = stats.info.data ?? {};
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
