import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LANGS } from '../src/lang.ts';
import {
  SITE_MESSAGE_KINDS,
  type SiteMessageKindName,
  siteMessageText,
} from '../src/schemas/site-message.schema.ts';

describe('message centre wording', () => {
  it('words every kind in both languages from its parameters, with nothing left unfilled', () => {
    const params = { name: 'welcome', reason: 'a reason', yuan: '40.00', line: '50.00' };
    for (const kind of Object.keys(SITE_MESSAGE_KINDS) as SiteMessageKindName[]) {
      const [zh, en] = LANGS.map((lang) => siteMessageText(kind, params, lang));
      for (const text of [zh, en]) {
        assert.ok(text?.title && text.content, kind);
        assert.doesNotMatch(`${text.title} ${text.content}`, /undefined|\$\{/, kind);
      }
      assert.match(`${zh?.title}${zh?.content}`, /[\u4e00-\u9fff]/, `${kind} in Chinese`);
      assert.doesNotMatch(`${en?.title}${en?.content}`, /[\u4e00-\u9fff]/, `${kind} in English`);
      assert.match(SITE_MESSAGE_KINDS[kind].link, /^\/[a-zA-Z_]/, `${kind} links to a console screen`);
    }
    assert.equal(
      siteMessageText('balance_low', params, 'en').content,
      'Your balance is 40.00 yuan, below 50.00 yuan. Sending mail and SMS pauses when it runs out; top up in time.',
    );
  });
});
