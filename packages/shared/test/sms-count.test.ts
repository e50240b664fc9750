import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSmsVariables, countSms, renderSmsTemplate, smsPlaceholders } from '../src/index.ts';

/**
 * The one SMS counter (the count-test screen, the template form and the sender): GSM 7-bit
 * 160/153 with extension characters as two septets, UCS-2 70/67 in UTF-16 units, the signature
 * counted where the carrier puts it. Also the variable rules of the send path.
 */
describe('countSms', () => {
  const brief = (text: string, signature?: string, region?: 'domestic' | 'international') => {
    const { characters, parts, encoding, perPart } = countSms(text, signature, region);
    return { characters, parts, encoding, perPart };
  };

  it('counts GSM 7-bit texts by 160, then by 153 per part', () => {
    assert.deepEqual(brief('a'.repeat(160)), { characters: 160, parts: 1, encoding: 'gsm7', perPart: 160 });
    assert.deepEqual(brief('a'.repeat(161)), { characters: 161, parts: 2, encoding: 'gsm7', perPart: 153 });
    assert.equal(brief('a'.repeat(306)).parts, 2);
    assert.equal(brief('a'.repeat(307)).parts, 3);
  });

  it('counts a GSM extension character as two septets', () => {
    assert.deepEqual(brief('€'.repeat(80)), { characters: 160, parts: 1, encoding: 'gsm7', perPart: 160 });
    assert.deepEqual(brief('€'.repeat(81)), { characters: 162, parts: 2, encoding: 'gsm7', perPart: 153 });
  });

  it('counts Chinese by 70, then by 67 per part: 71 characters are 2 parts', () => {
    assert.deepEqual(brief('好'.repeat(70)), { characters: 70, parts: 1, encoding: 'ucs2', perPart: 70 });
    assert.deepEqual(brief('好'.repeat(71)), { characters: 71, parts: 2, encoding: 'ucs2', perPart: 67 });
    assert.equal(brief('好'.repeat(134)).parts, 2);
    assert.equal(brief('好'.repeat(135)).parts, 3);
  });

  it('counts an emoji as two UTF-16 units', () => {
    assert.deepEqual(brief('😀'.repeat(35)), { characters: 70, parts: 1, encoding: 'ucs2', perPart: 70 });
    assert.equal(brief('😀'.repeat(36)).parts, 2);
  });

  it('counts the domestic signature in 【】 at the start, which makes any text UCS-2', () => {
    const signed = countSms('好'.repeat(64), '赫耳墨斯');
    assert.equal(signed.text, `【赫耳墨斯】${'好'.repeat(64)}`);
    assert.deepEqual([signed.characters, signed.parts], [70, 1]);
    assert.equal(countSms('好'.repeat(65), '赫耳墨斯').parts, 2);
    assert.equal(countSms('Your code is 1234', '赫耳墨斯').encoding, 'ucs2');
  });

  it('counts an international signature as [name] and a space, staying GSM', () => {
    const signed = countSms('Hi', 'Herald', 'international');
    assert.equal(signed.text, '[Herald] Hi');
    assert.deepEqual([signed.encoding, signed.characters], ['gsm7', 13]);
  });

  it('counts nothing for an empty text', () => {
    assert.deepEqual(brief(''), { characters: 0, parts: 0, encoding: 'gsm7', perPart: 160 });
  });
});

describe('template variables', () => {
  it('finds %name% placeholders of letters, digits and underscores; Chinese names are invalid', () => {
    assert.deepEqual(smsPlaceholders('%name%您好，验证码%code%，再次%code%，优惠50% off，%姓名%'), {
      names: ['name', 'code'],
      invalid: ['姓名'],
    });
  });

  it('renders with the values and leaves unknown placeholders', () => {
    assert.equal(renderSmsTemplate('您好%name%，验证码%code%', { name: '张三' }), '您好张三，验证码%code%');
  });

  it('checks values at send time with the SMS API codes', () => {
    const template = { content: '您好%name%，验证码%code%' };
    assert.deepEqual(checkSmsVariables(template, { name: '张三', code: '1234' }), { ok: true });
    assert.deepEqual(checkSmsVariables(template, { name: '张三' }), {
      ok: false,
      code: 'SMS_VAR_MISSING',
      params: { name: 'code' },
    });
    assert.deepEqual(checkSmsVariables(template, { name: 'x'.repeat(33), code: '1' }), {
      ok: false,
      code: 'SMS_VAR_TOO_LONG',
      params: { name: 'name' },
    });
    assert.deepEqual(checkSmsVariables(template, { name: 'www.x.cn', code: '1' }), {
      ok: false,
      code: 'SMS_VAR_HAS_URL',
      params: { name: 'name' },
    });
  });
});
