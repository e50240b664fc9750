import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { SmsPricesService } from '../../server/src/core/sms-prices/sms-prices.service.ts';
import { withPage } from '../harness/browser.ts';
import { startConsoleTestbed, stopConsoleTestbed } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';

/**
 * The public International SMS page: without a login, a visitor picks countries (at most five)
 * and reads the operator's prices per part, a country without a price saying it is not offered.
 */
let herald: Herald;
let browser: Browser;

before(async () => {
  ({ herald, browser } = await startConsoleTestbed());
  await withHeraldDatabase(herald, async (database) => {
    await new SmsPricesService(database).set({
      country: 'US',
      priceMilli: 350,
      senderRule: 'alphanumeric',
      senderId: 'Herald',
    });
  });
});

after(() => stopConsoleTestbed({ browser, herald }));

test('a visitor queries international SMS prices for chosen countries', (t) =>
  withPage(browser, t, async (page) => {
    await page.goto(`${herald.url}/InternationalSms`);
    await page.getByRole('heading', { name: '国际短信' }).waitFor();
    const select = page.locator('.intl-sms-countries');
    for (const name of ['美国', '日本']) {
      await select.click();
      await page.keyboard.type(name);
      await page.locator('.ant-select-item-option', { hasText: name }).first().click();
    }
    await page.keyboard.press('Escape');
    await page.locator('.intl-sms-query').click();
    const rows = page.locator('.intl-sms-prices tr.ant-table-row');
    await rows.nth(1).waitFor();
    assert.match((await rows.nth(0).textContent()) ?? '', /美国 \(US\)\+10\.350元\/条注册的名称/);
    assert.match((await rows.nth(1).textContent()) ?? '', /日本 \(JP\)\+81暂未开通/);
  }));
