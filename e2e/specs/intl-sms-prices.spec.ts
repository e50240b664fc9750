import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { SmsPricesService } from '../../server/src/core/sms-prices/sms-prices.service.ts';
import { operatorUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';

/**
 * International SMS prices: the operator sets a country's price on /admin/smsCarriers, and on the
 * public International SMS page a visitor without a login picks countries (at most five) and reads
 * the prices per part, a country without a price saying it is not offered.
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

test('the operator sets a price on the admin screen', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, await operatorUser(herald));
    await page.goto(`${herald.url}/admin/smsCarriers`);
    await page.locator('.admin-sms-carriers-page').waitFor();
    const card = page.locator('.admin-sms-prices');
    await card.locator('tr.ant-table-row', { hasText: 'US' }).waitFor();
    await page.locator('.admin-sms-price-add').click();
    await page.locator('.admin-sms-price-country').click();
    await page.keyboard.type('日本');
    await page.locator('.ant-select-item-option', { hasText: '日本' }).first().click();
    await page.locator('input.admin-sms-price-value, .admin-sms-price-value input').first().fill('0.42');
    await page.locator('.admin-sms-price-save').click();
    await card.locator('tr.ant-table-row', { hasText: 'JP' }).getByText('0.420元/条').waitFor();
  }));

test('a visitor queries international SMS prices for chosen countries', (t) =>
  withPage(browser, t, async (page) => {
    await page.goto(`${herald.url}/InternationalSms`);
    await page.getByRole('heading', { name: '国际短信' }).waitFor();
    const select = page.locator('.intl-sms-countries');
    for (const name of ['美国', '日本', '法国']) {
      await select.click();
      await page.keyboard.type(name);
      await page.locator('.ant-select-item-option', { hasText: name }).first().click();
    }
    await page.keyboard.press('Escape');
    await page.locator('.intl-sms-query').click();
    const rows = page.locator('.intl-sms-prices tr.ant-table-row');
    await rows.nth(2).waitFor();
    assert.match((await rows.nth(0).textContent()) ?? '', /美国 \(US\)\+10\.350元\/条注册的名称/);
    assert.match((await rows.nth(1).textContent()) ?? '', /日本 \(JP\)\+810\.420元\/条不限/);
    assert.match((await rows.nth(2).textContent()) ?? '', /法国 \(FR\)\+33暂未开通/);
  }));
