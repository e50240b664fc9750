import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  changePasswordSchema,
  isStrongPassword,
  LANGS,
  registerSchema,
  VALIDATION_MESSAGES,
  validationMessage,
} from '../src/index.ts';

const valid = {
  userName: 'herald_user1',
  password: 'Abcdef12',
  confirmPassword: 'Abcdef12',
  email: 'ada@example.com',
  phone: '13800138000',
  agreement: 'on',
};

function problems(input: unknown) {
  const result = registerSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('registration rules (product-spec §5)', () => {
  it('accepts a valid registration', () => {
    assert.deepEqual(problems(valid), {});
  });

  it('checks the user name: 4-20 letters, digits, underscore', () => {
    for (const bad of ['abc', 'a'.repeat(21), 'has space', 'dash-name', '中文名字']) {
      assert.equal(problems({ ...valid, userName: bad }).userName, 'userNameFormat', bad);
    }
    for (const good of ['abcd', 'a'.repeat(20), 'A_1_b'])
      assert.deepEqual(problems({ ...valid, userName: good }), {});
  });

  it('checks the password: 8-16, no spaces, three of four classes', () => {
    assert.equal(isStrongPassword('Abcdef12'), true);
    assert.equal(isStrongPassword('abcdef1!'), true);
    assert.equal(isStrongPassword('abcdefg1'), false, 'two classes');
    assert.equal(isStrongPassword('Abc de12'), false, 'space');
    assert.equal(isStrongPassword('Ab1!'), false, 'short');
    assert.equal(isStrongPassword('Abcdefgh12345678x'), false, 'long');
    assert.equal(problems({ ...valid, password: 'weakpassword' }).password, 'passwordFormat');
  });

  it('requires a matching confirmation, a valid email and phone, and the agreement', () => {
    assert.equal(problems({ ...valid, confirmPassword: 'Abcdef13' }).confirmPassword, 'passwordMismatch');
    assert.equal(problems({ ...valid, email: 'not-an-email' }).email, 'emailFormat');
    assert.equal(problems({ ...valid, phone: '12345' }).phone, 'phoneFormat');
    assert.deepEqual(problems({ ...valid, phone: '+4915123456789' }), {});
    assert.equal(problems({ ...valid, agreement: 'false' }).agreement, 'agreementRequired');
    assert.equal(problems({ ...valid, agreement: undefined }).agreement, 'agreementRequired');
    assert.equal(problems({ ...valid, userName: undefined }).userName, 'required');
  });

  it('refuses a new password equal to the old one', () => {
    const result = changePasswordSchema.safeParse({
      oldPassword: 'Abcdef12',
      newPassword: 'Abcdef12',
      confirmPassword: 'Abcdef12',
    });
    assert.equal(result.success, false);
    assert.equal(result.error?.issues[0]?.message, 'passwordSameAsOld');
  });

  it('has every rule message in both languages', () => {
    for (const [key, messages] of Object.entries(VALIDATION_MESSAGES)) {
      for (const lang of LANGS) assert.ok(messages[lang].length > 0, `${key} lacks ${lang}`);
    }
    assert.equal(validationMessage('emailFormat', 'en'), 'Invalid email format');
    assert.equal(validationMessage('free text', 'en'), 'free text');
  });
});
