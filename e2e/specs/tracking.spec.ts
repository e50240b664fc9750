import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';
import { type MailPeers, startMailPeers } from '../harness/mail-peers.ts';
import { type ApiCredentials, sendMail, writeSendingSetup } from '../harness/sending.ts';

/**
 * Tracking as a user meets it: a mail sent through the API reaches the (loopback) recipient's MX
 * with an open pixel; fetching that pixel like a mail client does puts an open with its browser
 * and system on the open/click screen, and an image proxy's fetch is marked as a machine's.
 * Then a custom tracking domain is added on the tracking screen, its CNAME checked against the
 * loopback DNS server (missing, then published) and made the default.
 */
let peers: MailPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let sender: ApiCredentials;
const DOMAIN = 'mail.track-e2e.example';
const CNAME_TARGET = 'track.herald-e2e.test';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const GOOGLE_PROXY =
  'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

before(async () => {
  peers = await startMailPeers(['example.com', 'open-e2e.example']);
  ({ herald, browser, owner } = await startConsoleTestbed({
    ...peers.env,
    HERALD_TRACKING_CNAME: CNAME_TARGET,
  }));
  // The sending set-up as the domain and API_USER screens leave it (open tracking is on by default).
  sender = await writeSendingSetup(herald, owner, { domain: DOMAIN, apiUser: `e2e_track_${process.pid}` });
});

after(() => stopConsoleTestbed({ browser, herald }, peers));

test('an open made by fetching the mail’s pixel shows on the open/click screen', (t) =>
  withPage(browser, t, async (page) => {
    const sent = await sendMail(herald, sender, {
      from: `news@${DOMAIN}`,
      to: 'reader@open-e2e.example',
      subject: 'Tracking e2e',
      html: '<html><body><p>Hello <a href="https://shop.example/sale">sale</a></p></body></html>',
    });
    assert.equal(sent.result, true, sent.message);
    const { text } = await peers.nextMail('reader@open-e2e.example', 60_000);
    const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(text)?.[1] ?? '';
    assert.ok(pixel.startsWith(`${herald.url}/t/o/`), text);

    // A person opens it a minute after it arrived (an open right at delivery counts as a scanner's).
    await withHeraldDatabase(herald, async ({ db }) => {
      await db
        .updateTable('message_recipients')
        .set((eb) => ({ delivered_at: eb('delivered_at', '-', 60_000) }))
        .where('email_id', '=', sent.info.emailIdList[0] ?? '')
        .execute();
    });
    const open = await fetch(pixel, { headers: { 'user-agent': CHROME } });
    assert.equal(open.status, 200);
    assert.equal(open.headers.get('content-type'), 'image/gif');

    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendResponse/openClick?lang=en`);
    await waitForShell(page);
    const row = page.locator('.open-click-table tbody tr', { hasText: 'reader@open-e2e.example' });
    await row.waitFor({ timeout: 30_000 });
    const cells = (await row.textContent()) ?? '';
    assert.match(cells, /Open/);
    assert.match(cells, /Chrome 124\.0\.0\.0/);
    assert.match(cells, /Windows 10/);
    assert.match(cells, /Person/);
    assert.match(cells, /First/);
  }));

test('an image proxy’s fetch of the pixel shows as a machine hit, never as the first open', (t) =>
  withPage(browser, t, async (page) => {
    const sent = await sendMail(herald, sender, {
      from: `news@${DOMAIN}`,
      to: 'proxied@open-e2e.example',
      subject: 'Tracking e2e, proxied',
      html: '<html><body><p>Hello</p></body></html>',
    });
    assert.equal(sent.result, true, sent.message);
    const { text } = await peers.nextMail('proxied@open-e2e.example', 60_000);
    const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(text)?.[1] ?? '';
    assert.ok(pixel.startsWith(`${herald.url}/t/o/`), text);
    // Well after delivery, so only the user agent says it is Gmail's image proxy.
    await withHeraldDatabase(herald, async ({ db }) => {
      await db
        .updateTable('message_recipients')
        .set((eb) => ({ delivered_at: eb('delivered_at', '-', 60_000) }))
        .where('email_id', '=', sent.info.emailIdList[0] ?? '')
        .execute();
    });
    const proxy = await fetch(pixel, { headers: { 'user-agent': GOOGLE_PROXY } });
    assert.equal(proxy.status, 200);

    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendResponse/openClick?lang=en`);
    await waitForShell(page);
    const row = page.locator('.open-click-table tbody tr', { hasText: 'proxied@open-e2e.example' });
    await row.waitFor({ timeout: 30_000 });
    const cells = (await row.textContent()) ?? '';
    assert.match(cells, /Open/);
    assert.match(cells, /Machine/);
    assert.doesNotMatch(cells, /Person|First/);
    assert.match(
      (await row.locator('.open-click-bot').getAttribute('title')) ?? '',
      /not counted in the open, click or unique figures/,
    );
  }));

test('a tracking domain added on the tracking screen is verified by its CNAME and made the default', (t) =>
  withPage(browser, t, async (page) => {
    const name = 'click.track-e2e.example';
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendSetting/track?lang=en`);
    await waitForShell(page);
    await page.locator('.track-page .track-domains-table .ant-empty').waitFor();

    await page.locator('.track-domains-add').click();
    await page.locator('input[name="name"]').fill('not a domain');
    await page.locator('.track-domain-form-submit').click();
    await page.getByText('Invalid domain name, e.g. mail.example.com').waitFor();
    await page.locator('input[name="name"]').fill(name);
    await page.locator('.track-domain-form-submit').click();

    const row = page.locator('.track-domains-table tbody tr', { hasText: name });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', new RegExp(`CNAME ${CNAME_TARGET.replace(/\./g, '\\.')}`));
    await row.locator('.track-status-unverified').waitFor();

    // Nothing published yet: the check says so.
    await row.locator('.track-domain-check').click();
    await row.locator('.track-domain-error', { hasText: `${name} does not exist in DNS yet` }).waitFor();
    assert.doesNotMatch((await row.textContent()) ?? '', /NXDOMAIN/);
    assert.equal(await row.locator('.track-domain-default').isDisabled(), true);

    peers.dns.set(name, 'CNAME', [CNAME_TARGET]);
    await row.locator('.track-domain-check').click();
    await row.locator('.track-status-verified').waitFor();
    assert.match((await row.textContent()) ?? '', new RegExp(CNAME_TARGET.replace(/\./g, '\\.')));
    await row.locator('.track-domain-default').click();
    await row.locator('.track-domain-is-default').waitFor();

    await page.reload();
    await page
      .locator('.track-domains-table tbody tr', { hasText: name })
      .locator('.track-domain-is-default')
      .waitFor();
  }));
