import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type DnsServer, type Herald, startDnsServer, startHerald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { logIn, waitForShell } from '../harness/console.ts';

/**
 * Sending domains as a user sets one up: add it in the console, copy the records it shows into
 * DNS (here a loopback DNS server Herald resolves through), press "verify now" and watch the
 * status go from unverified to usable (SPF, DKIM, MX) and to verified (with DMARC).
 */
let dns: DnsServer;
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  dns = await startDnsServer();
  [herald, browser] = await Promise.all([
    startHerald({ env: { HERALD_DNS_SERVERS: dns.address, HERALD_HOSTNAME: 'herald.test' } }),
    launchBrowser(),
  ]);
  owner = await createTestUser(herald);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
  await dns?.close();
});

const text = async (page: Page, selector: string) =>
  ((await page.locator(selector).textContent()) ?? '').trim();

async function shownRecord(page: Page, kind: string) {
  const row = `.domain-record-${kind}`;
  return { host: await text(page, `${row} .record-host`), value: await text(page, `${row} .record-value`) };
}

/** Presses a copy button of the console and reads what it put on the clipboard. */
async function copied(page: Page, selector: string): Promise<string> {
  const element = page.locator(selector);
  await element.locator('.ant-typography-copy').click();
  await element.locator('.ant-typography-copy-success').waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

async function verifyNow(page: Page, expected: string) {
  await page.locator('.domain-verify-now').click();
  await page.locator(`.domain-config-page .domain-status-${expected}`).waitFor();
}

test('a domain added in the console becomes usable, then verified, as its records appear in DNS', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: herald.url });
    await page.goto(`${herald.url}/sendSetting/domain`);
    await waitForShell(page);
    await page.locator('.domains-page .ant-empty').waitFor();
    assert.equal(await text(page, '.domains-count'), '0 / 5');

    await page.locator('.domains-add').click();
    await page.locator('input[name="name"]').fill('not a domain');
    await page.locator('.domain-form-submit').click();
    await page.getByText('域名格式错误，例如 mail.example.com').waitFor();
    await page.locator('input[name="name"]').fill('Shop.Example.test');
    await page.locator('.domain-form-submit').click();

    await page.locator('.domain-config-page').waitFor();
    assert.match(page.url(), /\/sendSetting\/domain\/domainConfig\?domainId=\d+$/);
    await page.locator('.domain-config-page .domain-status-unverified').waitFor();
    const spf = await shownRecord(page, 'spf');
    const dkim = await shownRecord(page, 'dkim');
    const mx = await shownRecord(page, 'mx');
    const dmarc = await shownRecord(page, 'dmarc');
    assert.deepEqual(spf, { host: 'shop.example.test', value: 'v=spf1 include:spf.herald.test ~all' });
    assert.match(dkim.host, /^hd[0-9a-f]{8}\._domainkey\.shop\.example\.test$/);
    assert.match(dkim.value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{392}$/);
    assert.deepEqual(mx, { host: 'shop.example.test', value: 'mx.herald.test' });
    assert.equal(dmarc.host, '_dmarc.shop.example.test');

    // The host as DNS consoles ask for it, relative to the zone the hint names, and the full name.
    const selector = dkim.host.split('.')[0];
    const prefixes: Record<string, string> = {};
    for (const kind of ['spf', 'dkim', 'mx', 'dmarc'])
      prefixes[kind] = await text(page, `.domain-record-${kind} .record-host-prefix`);
    assert.deepEqual(prefixes, {
      spf: 'shop',
      dkim: `${selector}._domainkey.shop`,
      mx: 'shop',
      dmarc: '_dmarc.shop',
    });
    assert.match(await text(page, '.domain-zone-hint'), /DNS 区域 example\.test 的名称/);
    assert.equal(
      await copied(page, '.domain-record-dkim .record-host-prefix'),
      `${selector}._domainkey.shop`,
    );
    assert.equal(await copied(page, '.domain-record-dkim .record-host'), dkim.host);
    assert.equal(await copied(page, '.domain-record-dkim .record-value'), dkim.value);

    // Nothing published yet: each record says what is missing, in the reader's language.
    await verifyNow(page, 'unverified');
    await page.locator('.domain-record-spf .record-status-missing').waitFor();
    const zhError = await text(page, '.domain-record-dkim .record-error');
    assert.equal(
      zhError,
      `DNS 中还没有 ${dkim.host} 这个名称：请在 DNS 服务商处添加此记录（新记录生效可能需要几分钟）`,
    );
    const zhPage = await text(page, '.domain-config-page');
    const configUrl = page.url();
    await page.goto(`${configUrl}&lang=en`);
    await page.locator('.domain-record-dkim .record-status-missing').waitFor();
    const enError = await text(page, '.domain-record-dkim .record-error');
    assert.equal(
      enError,
      `${dkim.host} does not exist in DNS yet: add this record at your DNS host (a new record can take a few minutes to appear)`,
    );
    assert.match(await text(page, '.domain-zone-hint'), /relative to the DNS zone example\.test/);
    assert.equal(await text(page, '.domain-record-dmarc .record-host-prefix'), '_dmarc.shop');
    const screens = `${zhPage}\n${await text(page, '.domain-config-page')}`;
    assert.doesNotMatch(screens, /NXDOMAIN|ENOTFOUND|ENODATA|SERVFAIL/);
    await page.goto(`${configUrl}&lang=zh-cn`);
    await page.locator('.domain-record-dkim .record-status-missing').waitFor();

    // A wrong MX first: the row says where it points.
    dns.set(spf.host, 'TXT', [spf.value]);
    dns.set(dkim.host, 'TXT', [dkim.value]);
    dns.set(mx.host, 'MX', [{ priority: 10, exchange: 'mx.elsewhere.test' }]);
    await verifyNow(page, 'unverified');
    await page.locator('.domain-record-mx .record-status-invalid').waitFor();
    assert.equal(await text(page, '.domain-record-mx .record-found'), '当前值: 10 mx.elsewhere.test');

    dns.set(mx.host, 'MX', [{ priority: 10, exchange: mx.value }]);
    await verifyNow(page, 'usable');
    for (const kind of ['spf', 'dkim', 'mx'])
      await page.locator(`.domain-record-${kind} .record-status-ok`).waitFor();
    await page.locator('.domain-record-dmarc .record-status-missing').waitFor();

    dns.set(dmarc.host, 'TXT', [dmarc.value]);
    await verifyNow(page, 'verified');
    await page.locator('.domain-record-dmarc .record-status-ok').waitFor();

    // A key rotation: the new record shows beside the current one and takes over once published.
    await page.locator('.domain-dkim-rotate').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    const next = {
      host: await text(page, '.domain-dkim-next .record-host'),
      value: await text(page, '.domain-dkim-next .record-value'),
    };
    assert.match(next.host, /^hd[0-9a-f]{8}\._domainkey\.shop\.example\.test$/);
    assert.notEqual(next.host, dkim.host);
    assert.equal((await shownRecord(page, 'dkim')).host, dkim.host);
    dns.set(next.host, 'TXT', [next.value]);
    await verifyNow(page, 'verified');
    await page.locator('.domain-dkim-next').waitFor({ state: 'detached' });
    assert.deepEqual(await shownRecord(page, 'dkim'), next);

    await page.goto(`${herald.url}/sendSetting/domain`);
    const row = page.locator('.domains-page tr', { hasText: 'shop.example.test' });
    await row.locator('.domain-status-verified').waitFor();
    for (const kind of ['spf', 'dkim', 'mx', 'dmarc']) await row.locator(`.record-${kind}-ok`).waitFor();
    assert.equal(await text(page, '.domains-count'), '1 / 5');
  }));

test('deleting a domain asks first, then empties the list', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendSetting/domain`);
    await waitForShell(page);
    const row = page.locator('.domains-page tr', { hasText: 'shop.example.test' });
    await row.locator('.domain-delete').click();
    await page.getByText('确定删除 shop.example.test？').waitFor();
    await page.locator('.ant-popconfirm .ant-btn-dangerous').click();
    await page.locator('.domains-page .ant-empty').waitFor();
  }));
