import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';

/**
 * The dashboard against a real Herald: a new account sees the beginner guide with nothing
 * ticked; after a sending domain is created through the API (and verified, written as the DNS
 * check leaves it) and an API_USER is created through the API, exactly those steps are ticked;
 * the trend chart draws. The SMS dashboard ticks its own steps (an SMS_USER made through the API)
 * and draws its trend beside the anti-bombing panel.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  ({ herald, browser, owner } = await startConsoleTestbed());
});

after(() => stopConsoleTestbed({ browser, herald }));

const api = async (method: string, url: string, body?: object) => {
  const res = await fetch(`${herald.url}/v3/api${url}`, {
    method,
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', lang: 'en' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  assert.ok(res.ok, JSON.stringify(json));
  return json.data;
};

const ticked = async (page: Page) => {
  await page.locator('.guide-step').first().waitFor();
  const steps = page.locator('.guide-step');
  const done: string[] = [];
  for (let i = 0; i < (await steps.count()); i++) {
    const step = steps.nth(i);
    if ((await step.getAttribute('data-done')) === 'true') {
      done.push(((await step.getAttribute('class')) ?? '').replace(/.*guide-step-(\w+).*/, '$1'));
    }
  }
  return done;
};

test('the guide ticks the steps an account has done; the trend chart draws', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/backend/dashborad`);
    await waitForShell(page);
    await page.locator('.dashboard-guide').getByRole('heading', { name: '发送测试邮件' }).waitFor();
    assert.equal(await page.locator('.guide-step').count(), 4);
    assert.deepEqual(await ticked(page), []);
    // Every step has its button; the first to do is the sending domain, which the others need.
    assert.equal(await page.locator('.guide-step .guide-action').count(), 4);
    await page.locator('.guide-action-domain.ant-btn-primary').waitFor();
    await page.locator('.dashboard-trend [data-chart-ready="true"]').waitFor();
    await page.locator('.dashboard-alerts').getByText('暂无预警').waitFor();

    const domain = await api('POST', '/config/domains', { name: 'mail.e2e-dash.example' });
    await withHeraldDatabase(herald, ({ db }) =>
      db
        .updateTable('sending_domains')
        .set({ status: 'verified' })
        .where('id', '=', Number(domain.id))
        .execute(),
    );
    await api('POST', '/config/categories', {
      name: `e2e_dash_${process.pid}`,
      emailType: 'trigger',
      domainId: Number(domain.id),
    });

    await page.reload();
    await waitForShell(page);
    await page.locator('.guide-step-apiUser[data-done="true"]').waitFor();
    assert.deepEqual(await ticked(page), ['domain', 'apiUser']);
    await page.locator('.guide-action-testMail.ant-btn-primary').waitFor();
    await page.locator('.dashboard-trend [data-chart-ready="true"]').waitFor();
    await page.locator('.dashboard-trend .ant-segmented-item', { hasText: '30' }).click();
    await page.locator('.dashboard-trend [data-chart-ready="true"]').waitFor();
  }));

test('the SMS dashboard shows its guide, figures and alert panel', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/backend/s_dashborad`);
    await waitForShell(page);
    await page.locator('.guide-step-smsUser[data-done="false"]').waitFor();
    assert.deepEqual(await ticked(page), []);
    await page.locator('.guide-action-smsUser.ant-btn-primary').waitFor();
    await page.locator('.dashboard-sms-trend [data-chart-ready="true"]').waitFor();
    await page.locator('.dashboard-sms-alerts').getByText('暂无被暂停的模板').waitFor();

    await api('POST', '/sms/smsUsers', { name: 'dash_sms_user', cType: 'normal' });
    await page.reload();
    await waitForShell(page);
    await page.locator('.guide-step-smsUser[data-done="true"]').waitFor();
    assert.deepEqual(await ticked(page), ['smsUser']);
    await page.locator('.guide-action-sign.ant-btn-primary').click();
    await page.waitForURL(/\/s_sendRelative\/sign/);
  }));
