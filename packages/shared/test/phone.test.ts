import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import { parseMobile } from '../src/phone.ts';

/** The full parse, as parseMobile did it before its fast path for plain mainland mobiles. */
function fullParse(input: string) {
  const parsed = parsePhoneNumberFromString(input.trim().replace(/^00/, '+'), 'CN');
  if (!parsed?.isValid() || !parsed.country) return null;
  return { e164: parsed.number, country: parsed.country, national: parsed.nationalNumber };
}

describe('parseMobile', () => {
  it('answers plain mainland mobiles exactly as the full parse does, for every 5-digit prefix', () => {
    let seed = 17;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let valid = 0;
    for (let prefix = 10_000; prefix < 20_000; prefix++) {
      for (let i = 0; i < 3; i++) {
        const national = `${prefix}${String(Math.floor(random() * 1e6)).padStart(6, '0')}`;
        for (const input of [national, `+86${national}`, `0086${national}`]) {
          const expected = fullParse(input);
          assert.deepEqual(parseMobile(input), expected, input);
          if (expected) valid++;
        }
      }
    }
    assert.ok(valid > 10_000, 'most mainland prefixes hold mobiles');
  });

  it('still reads other shapes through the full parse', () => {
    assert.equal(parseMobile(' 138-0013-8000 ')?.e164, '+8613800138000');
    assert.equal(parseMobile('+1 415 555 2671')?.country, 'US');
    assert.equal(parseMobile('12345'), null);
    assert.equal(parseMobile('+8613800138000', undefined)?.country, 'CN');
  });
});
