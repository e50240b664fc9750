import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { dedicatedIpFees } from '@herald/shared';
import { DedicatedIpsService } from '../../server/src/core/dedicated-ips/dedicated-ips.service.ts';
import { createLogger } from '../../server/src/logger.ts';
import { withPage } from '../harness/browser.ts';
import {
  type ConsoleTestbed,
  confirmPopconfirm,
  expectText,
  logIn,
  startConsoleTestbed,
  stopConsoleTestbed,
  waitForShell,
} from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';
import { recordTransfer } from '../harness/money.ts';
import { writeSendingSetup } from '../harness/sending.ts';

/**
 * Dedicated IPs (issue 18) in the browser, against a real Herald: a paid customer with a verified
 * sending domain opens IP management, sees the empty state, opens the purchase form, picks the
 * domain and sees the cost worked out by the shared function (the rest of this month by day, 500
 * yuan a month, 6,000 yuan for the year), confirms, and gets the pool's free address at once,
 * with the A record to publish (the domain pointing at the address) and the date it is due by.
 */
const DOMAIN = 'mail.e2e-dedicated.example';
let testbed: ConsoleTestbed;

const yuan = (fen: number) =>
  `¥${(fen / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

before(async () => {
  testbed = await startConsoleTestbed();
  const { herald, owner } = testbed;
  await writeSendingSetup(herald, owner, { domain: DOMAIN, apiUser: 'e2e_dedicated' });
  await recordTransfer(herald, owner, {
    amount: '2000',
    remitter: 'E2E Dedicated Ltd',
    bankRef: 'E2E-DIP-1',
  });
  await withHeraldDatabase(herald, (database) =>
    new DedicatedIpsService({
      database,
      logger: createLogger({ level: 'warn', roles: ['e2e'] }),
    }).addToPool('127.0.0.2'),
  );
});

after(() => stopConsoleTestbed(testbed ?? {}));

test('a paid customer buys a dedicated IP after confirming and sees the A record to publish', (t) =>
  withPage(testbed.browser, t, async (page) => {
    const { herald, owner } = testbed;
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendSetting/ipManager`);
    await waitForShell(page);
    await expectText(
      page.locator('.ip-manager-empty .ant-empty-description'),
      '还没有独立IP。为发信域名购买独立IP, 让它的邮件从专属地址发出。',
    );
    assert.equal(
      await page.locator('.ip-manager-paid-only').count(),
      0,
      'a paid account is not told to upgrade',
    );

    await page.getByTestId('ip-manager-buy').first().click();
    await page.locator('.ip-purchase-domain').click();
    await page.locator('.ant-select-item-option', { hasText: DOMAIN }).click();
    const fees = dedicatedIpFees(1, 12, Date.now());
    await expectText(page.locator('.ip-purchase-first'), yuan(fees.firstMonthFen));
    await expectText(page.locator('.ip-purchase-monthly'), '¥500.00');
    await expectText(page.locator('.ip-purchase-total'), '¥6,000.00');

    await page.getByTestId('ip-purchase-count').fill('2');
    await expectText(page.locator('.ip-purchase-monthly'), '¥1,000.00', 5_000);
    await page.getByTestId('ip-purchase-count').fill('1');
    await expectText(page.locator('.ip-purchase-monthly'), '¥500.00', 5_000);

    // Cancelling the confirmation buys nothing.
    await page.getByTestId('ip-purchase-submit').click();
    await page.locator('.ant-popconfirm:visible').waitFor();
    await page.locator('.ant-popconfirm:visible .ant-btn:not(.ip-purchase-confirm)').click();
    const none = await withHeraldDatabase(herald, ({ db }) =>
      db.selectFrom('dedicated_ips').select('id').execute(),
    );
    assert.deepEqual(none, []);

    await confirmPopconfirm(page, page.getByTestId('ip-purchase-submit'), 'ip-purchase-confirm');
    await expectText(page.locator('.ip-manager-table .dedicated-ip-address'), '127.0.0.2');
    await expectText(page.locator('.ip-manager-table .dedicated-ip-record'), `${DOMAIN} A 127.0.0.2`);
    await expectText(page.locator('.ip-manager-table .dedicated-ip-status'), '使用中');
    // Due 7 days after the assignment, in the console's zh-cn format and the browser's time zone.
    const deadline = await withHeraldDatabase(herald, async ({ db }) =>
      Number(
        (await db.selectFrom('dedicated_ips').select('a_record_deadline').executeTakeFirstOrThrow())
          .a_record_deadline,
      ),
    );
    const d = new Date(deadline);
    const pad = (n: number) => String(n).padStart(2, '0');
    await expectText(
      page.locator('.ip-manager-table .dedicated-ip-deadline'),
      `请于${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}前添加`,
    );
    await page.locator('.ip-purchase-modal').waitFor({ state: 'hidden' });

    const rows = await withHeraldDatabase(herald, ({ db }) =>
      db.selectFrom('dedicated_ips').select(['domain_name', 'address', 'status', 'months']).execute(),
    );
    assert.deepEqual(rows, [{ domain_name: DOMAIN, address: '127.0.0.2', status: 'active', months: 12 }]);
    const pool = await withHeraldDatabase(herald, ({ db }) =>
      db.selectFrom('ip_pool').select(['address', 'status']).execute(),
    );
    assert.deepEqual(pool, [{ address: '127.0.0.2', status: 'assigned' }]);
  }));
