import type { Herald } from '@herald/test-peers';
import type { Locator, Page } from 'playwright-core';
import { type CaptchaPurpose, CaptchaService } from '../../server/src/core/captcha/captcha.service.ts';
import { findChallenge } from '../../server/src/core/captcha/slider.repo.ts';
import { svgDataUrl } from '../../server/src/lib/secret-hash.ts';
import { withHeraldDatabase } from './database.ts';

/**
 * The human checks of the account screens, passed the way only a test can: the slider's notch is
 * read from the server's database, and the image codes the page asks for are answered with
 * captchas created in that same database with a known answer (the server stores answers hashed).
 * Everything else (the drag, the verify call, the form submit) stays real.
 */
export const IMAGE_CODE_ANSWER = 'Hk7p';

const PURPOSES: Record<string, CaptchaPurpose> = {
  '/v3/oauth/imageCode': 'oauth',
  '/v3/access/register/imageCode': 'register',
  '/v3/access/password/imageCode': 'password',
  '/v3/access/register/resendRegMail/imageCode': 'resendRegMail',
  '/v3/access/wechat/beforeLoginBind/imageCode': 'wechatBeforeLoginBind',
  '/v3/access/subInvite/imageCode': 'subInvite',
};

/** Answers the page's image-code requests with captchas whose answer is IMAGE_CODE_ANSWER. */
export async function knownImageCodes(page: Page, herald: Herald): Promise<void> {
  await page.route('**/imageCode', async (route) => {
    const purpose = PURPOSES[new URL(route.request().url()).pathname];
    if (!purpose) return route.continue();
    const { captchaId, svg } = await withHeraldDatabase(herald, (database) =>
      new CaptchaService(database, { randomText: () => IMAGE_CODE_ANSWER }).create(purpose),
    );
    await route.fulfill({ json: { data: { captchaId, image: svgDataUrl(svg) } } });
  });
}

/** Drags the slider's handle onto the notch, taking a human half second. */
export async function solveSlider(page: Page, herald: Herald, scope: Locator | Page = page): Promise<void> {
  const slider = scope.getByTestId('slider-captcha');
  await slider.and(page.locator('[data-status="ready"]')).waitFor();
  const challengeId = await slider.getAttribute('data-challenge');
  if (!challengeId) throw new Error('the slider has no challenge');
  const row = await withHeraldDatabase(herald, (database) => findChallenge(database, challengeId));
  if (!row) throw new Error(`no slider challenge ${challengeId}`);
  const box = await slider.getByTestId('slider-handle').boundingBox();
  if (!box) throw new Error('the slider handle is not visible');
  const startX = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(startX, y);
  await page.mouse.down();
  const steps = 10;
  for (let step = 1; step <= steps; step++) {
    await page.mouse.move(startX + (row.x * step) / steps, y);
    await page.waitForTimeout(50);
  }
  await page.mouse.up();
  await slider.and(page.locator('[data-status="passed"]')).waitFor();
}
