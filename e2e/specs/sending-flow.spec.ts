import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald, ReceivedMail } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { verify } from '../../server/test/mta/dkim-helpers.ts';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { type MxPeers, startMxPeers } from '../harness/mail-peers.ts';
import { apiv2Request } from '../harness/sending.ts';

/**
 * The whole sending set-up of issue 5 as one user goes through it, with nothing written into the
 * database: a fresh user adds a sending domain in the console, publishes exactly the records the
 * console shows (read from the screen into a loopback DNS server Herald resolves through),
 * verifies it to usable and then verified, creates an API_USER on it and copies the key from the
 * one-time dialog, sends a test mail from the console, and then sends with the same key the way
 * SendCloud's documentation does (a form post to /apiv2/mail/send). Both mails really travel:
 * the DNS server points the recipients' domain at a loopback SMTP MX (Herald's MTA port is the
 * peer's), which must receive them signed with a DKIM signature of the sending domain that
 * mailauth verifies against the DKIM record the console showed.
 */
const SENDING_DOMAIN = 'mail.e2e-flow.example';
const RECIPIENT_DOMAIN = 'inbox.e2e-flow.example';
const API_USER = 'e2e_flow_sender';

let peers: MxPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  peers = await startMxPeers([RECIPIENT_DOMAIN]);
  ({ herald, browser, owner } = await startConsoleTestbed({ ...peers.env, HERALD_HOSTNAME: 'herald.test' }));
});

after(() => stopConsoleTestbed({ browser, herald }, peers));

const text = async (page: Page, selector: string) =>
  ((await page.locator(selector).first().textContent()) ?? '').trim();

async function shownRecord(page: Page, kind: string) {
  const row = `.domain-record-${kind}`;
  return { host: await text(page, `${row} .record-host`), value: await text(page, `${row} .record-value`) };
}

async function verifyNow(page: Page, expected: string) {
  await page.locator('.domain-verify-now').click();
  await page.locator(`.domain-config-page .domain-status-${expected}`).waitFor();
}

async function mailTo(address: string, timeoutMs = 30_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = peers.mx.messages.find((m) => m.rcptTo.some((r) => r.toLowerCase() === address));
    if (mail) return mail;
    if (Date.now() > deadline) {
      throw new Error(`no mail to ${address}; Herald said:\n${herald.logs.slice(-20).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The DKIM-Signature's d= and s=, and mailauth's verdict against the record the console showed. */
async function checkDkim(mail: ReceivedMail, dkim: { host: string; value: string }) {
  const header = mail.headers['dkim-signature']?.[0];
  assert.ok(header, `a DKIM-Signature on the mail:\n${mail.raw.slice(0, 2000)}`);
  const tags = Object.fromEntries(
    header
      .replace(/\s+/g, '')
      .split(';')
      .filter(Boolean)
      .map((tag) => [tag.slice(0, tag.indexOf('=')), tag.slice(tag.indexOf('=') + 1)]),
  );
  assert.equal(tags.d, SENDING_DOMAIN);
  assert.equal(`${tags.s}._domainkey.${tags.d}`, dkim.host);
  const verdict = await verify(Buffer.from(mail.raw), { [dkim.host]: dkim.value });
  assert.equal(verdict.result, 'pass', verdict.comment);
}

test('a fresh user sets up a domain and an API_USER in the console, and mail sent from the console and the API arrives DKIM-signed', (t) =>
  withPage(browser, t, async (page) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: herald.url });
    await logIn(page.context(), herald, owner);

    // 1. Add the sending domain; the console shows the records to publish.
    await page.goto(`${herald.url}/sendSetting/domain`);
    await waitForShell(page);
    await page.locator('.domains-page .ant-empty').waitFor();
    await page.locator('.domains-add').click();
    await page.locator('input[name="name"]').fill(SENDING_DOMAIN);
    await page.locator('.domain-form-submit').click();
    await page.locator('.domain-config-page').waitFor();
    await page.locator('.domain-config-page .domain-status-unverified').waitFor();
    const spf = await shownRecord(page, 'spf');
    const dkim = await shownRecord(page, 'dkim');
    const mxRecord = await shownRecord(page, 'mx');
    const dmarc = await shownRecord(page, 'dmarc');
    assert.equal(spf.host, SENDING_DOMAIN);
    assert.match(spf.value, /^v=spf1 /);
    assert.match(
      dkim.host,
      new RegExp(`^[a-z0-9]+\\._domainkey\\.${SENDING_DOMAIN.replaceAll('.', '\\.')}$`),
    );
    assert.match(dkim.value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]+$/);
    assert.equal(mxRecord.host, SENDING_DOMAIN);
    assert.equal(dmarc.host, `_dmarc.${SENDING_DOMAIN}`);

    // 2. Publish what the screen shows: SPF, DKIM, MX make it usable; DMARC makes it verified.
    peers.dns.set(spf.host, 'TXT', [spf.value]);
    peers.dns.set(dkim.host, 'TXT', [dkim.value]);
    peers.dns.set(mxRecord.host, 'MX', [{ priority: 10, exchange: mxRecord.value }]);
    await verifyNow(page, 'usable');
    for (const kind of ['spf', 'dkim', 'mx']) {
      await page.locator(`.domain-record-${kind} .record-status-ok`).waitFor();
    }
    peers.dns.set(dmarc.host, 'TXT', [dmarc.value]);
    await verifyNow(page, 'verified');
    await page.locator('.domain-record-dmarc .record-status-ok').waitFor();

    // 3. An API_USER on that domain; its key is shown once, copied from the dialog.
    await page.goto(`${herald.url}/sendSetting/apiuser`);
    await waitForShell(page);
    await page.locator('.api-users-table').waitFor();
    await page.locator('.api-user-add').first().click();
    await page.locator('.api-user-option-page').waitFor();
    await page.locator('input[name="name"]').fill(API_USER);
    await page.locator('.api-user-domain').click();
    await page.locator('.ant-select-item-option', { hasText: SENDING_DOMAIN }).click();
    await page.locator('.api-user-submit').click();
    const dialog = page.locator('.api-key-modal');
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', /仅显示一次/);
    await dialog.locator('.api-key-copy').click();
    await dialog.getByText('已复制').waitFor();
    const apiKey = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(apiKey, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(await text(page, '.api-key-value'), apiKey);
    await dialog.locator('.api-key-close').click();
    await page.locator('.api-users-table').getByText(API_USER).waitFor();
    await dialog.waitFor({ state: 'detached' });
    assert.ok(!(await page.content()).includes(apiKey), 'the key is not shown after the dialog closed');
    await page.reload();
    await page.locator('.api-users-table').getByText(API_USER).waitFor();
    assert.ok(!(await page.content()).includes(apiKey), 'nor after a reload');

    // 4. A test send from the console, to a recipient whose MX is the loopback peer.
    const testRecipient = `ann@${RECIPIENT_DOMAIN}`;
    await page.goto(`${herald.url}/sendRelative/test`);
    await waitForShell(page);
    await page.locator('.test-send-recent .ant-empty').waitFor();
    await page.locator('.test-send-api-user').click();
    await page.locator('.ant-select-item-option', { hasText: API_USER }).click();
    await page.getByText(`必须是${SENDING_DOMAIN}下的地址`).waitFor();
    await page.locator('input[name="from"]').fill(`hello@${SENDING_DOMAIN}`);
    await page.locator('input[name="to"]').fill(testRecipient);
    await page.locator('input[name="subject"]').fill('测试发送：全流程');
    await page.locator('textarea[name="html"]').fill('<p>你好，这是一封测试邮件</p>');
    await page.locator('.test-send-submit').click();
    const accepted = page.locator('.test-send-accepted');
    await accepted.waitFor();
    assert.match((await accepted.textContent()) ?? '', /已受理：1封邮件等待投递/);
    const [testEmailId] = (await accepted.locator('code').allTextContents()).map((s) => s.trim());
    assert.match(testEmailId ?? '', new RegExp(`\\$${testRecipient.replaceAll('.', '\\.')}$`));
    const recent = page.locator('.test-send-recent');
    const row = recent.locator('tr', { hasText: testRecipient });
    await row.waitFor();
    const shownStatus = (await row.locator('[class*="test-send-status-"]').getAttribute('class')) ?? '';
    assert.match(shownStatus, /test-send-status-(requested|sending|delivered)\b/);

    const testMail = await mailTo(testRecipient);
    assert.equal(testMail.subject, '测试发送：全流程');
    assert.match(testMail.headers.from?.[0] ?? '', new RegExp(`hello@${SENDING_DOMAIN}`));
    await checkDkim(testMail, dkim);
    // Once delivered, the screen says so.
    await page.reload();
    await recent.locator('tr', { hasText: testRecipient }).locator('.test-send-status-delivered').waitFor();

    // 5. The same key from Node, a plain form post as in SendCloud's documentation.
    const apiRecipient = `bob@${RECIPIENT_DOMAIN}`;
    const res = await apiv2Request(herald, { apiUser: API_USER, apiKey }, 'mail/send', {
      from: `news@${SENDING_DOMAIN}`,
      to: apiRecipient,
      subject: 'API发送',
      html: '<p>来自API的邮件</p>',
    });
    assert.equal(res.status, 200);
    const envelope = (await res.json()) as {
      result: boolean;
      statusCode: number;
      message: string;
      info: { emailIdList: string[] };
    };
    assert.equal(envelope.result, true, JSON.stringify(envelope));
    assert.equal(envelope.statusCode, 200);
    assert.equal(envelope.info.emailIdList.length, 1);
    assert.match(
      envelope.info.emailIdList[0] ?? '',
      new RegExp(`\\$${apiRecipient.replaceAll('.', '\\.')}$`),
    );

    const apiMail = await mailTo(apiRecipient);
    assert.equal(apiMail.subject, 'API发送');
    await checkDkim(apiMail, dkim);
  }));
