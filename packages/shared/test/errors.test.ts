import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, ERRORS, type ErrorCode, formatMessage, LANGS, resolveLang } from '../src/index.ts';

describe('error catalogue', () => {
  it('has a non-empty message in every language for every code', () => {
    for (const [code, def] of Object.entries(ERRORS)) {
      for (const lang of LANGS) {
        assert.ok(def[lang].trim().length > 0, `${code} lacks a ${lang} message`);
      }
    }
  });

  it('uses the same placeholders in both languages', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [code, def] of Object.entries(ERRORS)) {
      assert.deepEqual(placeholders(def['zh-cn']), placeholders(def.en), `${code} placeholders differ`);
    }
  });

  it('names codes SCREAMING_SNAKE with an entity prefix and gives an HTTP status', () => {
    for (const [code, def] of Object.entries(ERRORS)) {
      assert.match(code, /^[A-Z]+(_[A-Z0-9]+)+$/);
      assert.ok(def.status >= 400 && def.status < 600, `${code} has status ${def.status}`);
    }
  });

  it('fills parameters into the message of the asked language', () => {
    const code: ErrorCode = 'COMMON_NOT_FOUND';
    assert.equal(formatMessage(code, 'en', { entity: 'Domain' }), 'Domain not found');
    assert.equal(formatMessage(code, 'zh-cn', { entity: '域名' }), '域名不存在');
    const error = new AppError(code, { entity: 'Domain' });
    assert.equal(error.status, 404);
    assert.equal(error.message, 'Domain not found');
  });
});

describe('resolveLang', () => {
  it('defaults to zh-cn and recognises English', () => {
    assert.equal(resolveLang(undefined), 'zh-cn');
    assert.equal(resolveLang('fr-FR'), 'zh-cn');
    assert.equal(resolveLang('en-US,en;q=0.9'), 'en');
    assert.equal(resolveLang('zh-CN'), 'zh-cn');
  });
});
