import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, type SmppCarrier, startHerald, startSmppCarrier } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { IMAGE_CODE_ANSWER, knownImageCodes, solveSlider } from '../harness/human-checks.ts';
import { codeIn, type MailPeers, startMailPeers } from '../harness/mail-peers.ts';

/**
 * Sign-up on a Herald with an SMS carrier (a loopback SMPP peer): the form asks for an SMS code,
 * the "send code" button counts down its minute, the code arrives at the carrier, and the form
 * is refused without it and accepted with it.
 */
let herald: Herald;
let browser: Browser;
let peers: MailPeers;
let carrier: SmppCarrier;

before(async () => {
  [peers, carrier] = await Promise.all([
    startMailPeers(),
    startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 20 }),
  ]);
  [herald, browser] = await Promise.all([
    startHerald({
      env: {
        ...peers.env,
        HERALD_SMPP_URL: `smpp://127.0.0.1:${carrier.port}`,
        HERALD_SMPP_SYSTEM_ID: 'herald',
        HERALD_SMPP_PASSWORD: 'secret',
      },
    }),
    launchBrowser(),
  ]);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
  await carrier?.close();
  await peers?.close();
});

test('sign-up texts a code to the phone, counts down the resend, and needs the code', (t) =>
  withPage(browser, t, async (page) => {
    const userName = `sms_${process.pid}`;
    const phone = `138${String(process.pid).padStart(8, '0').slice(-8)}`;
    await knownImageCodes(page, herald);
    await page.goto(`${herald.url}/register`);
    await page.locator('#userName').fill(userName);
    await page.locator('#email').fill(`${userName}@example.com`);
    await page.locator('#phone').fill(phone);
    await page.locator('#password').fill('Signup#2026');
    await page.locator('#confirmPassword').fill('Signup#2026');
    await page.getByTestId('agreement').check();

    // Without the code the form stops at the code field.
    await page.getByTestId('register-submit').click();
    await page.getByTestId('field-smsCode-error').getByText('请输入短信验证码').waitFor();

    await page.getByTestId('send-sms-code').click();
    await page
      .getByTestId('send-sms-code')
      .getByText(/\d+ 秒后重新获取/)
      .waitFor();
    assert.equal(await page.getByTestId('send-sms-code').isDisabled(), true);
    const [sms] = await carrier.waitForMessages(1, 20_000);
    assert.equal(sms?.destination, phone);

    await page.locator('#smsCode').fill(codeIn(sms?.text ?? ''));
    await page.getByTestId('image-code-image').waitFor();
    await page.locator('#captchaCode').fill(IMAGE_CODE_ANSWER);
    await solveSlider(page, herald);
    await page.getByTestId('register-submit').click();
    await page.waitForURL((url) => url.pathname === '/activate');
  }));
