import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError, formatMessage, LANGS } from '@herald/shared';
import {
  type CodeSender,
  pruneVerificationCodes,
  VerificationCodesService,
} from '../../src/core/verification/verification-codes.service.ts';
import type { Database } from '../../src/db/database.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

interface Sent {
  channel: 'email' | 'sms';
  to: string;
  subject?: string;
  text: string;
}

/** A CodeSender that keeps what it was given, and fails on demand (the seam the lead fills). */
class RecordingSender implements CodeSender {
  sent: Sent[] = [];
  failNext = false;
  async sendEmail(m: { to: string; subject: string; text: string }) {
    this.take();
    this.sent.push({ channel: 'email', ...m });
  }
  async sendSms(m: { to: string; text: string }) {
    this.take();
    this.sent.push({ channel: 'sms', ...m });
  }
  private take() {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('carrier down');
    }
  }
  lastCode(): string {
    const text = this.sent.at(-1)?.text ?? '';
    return /\d{6}/.exec(text)?.[0] ?? '';
  }
}

const MINUTE = 60_000;

describe('verification codes', () => {
  let testDb: TestDatabase;
  let database: Database;
  let clock = Date.now();
  let sender: RecordingSender;
  let codes: VerificationCodesService;
  before(async () => {
    testDb = await createTestDatabase();
    database = testDb.open();
    sender = new RecordingSender();
    codes = new VerificationCodesService(database, sender, { now: () => clock });
  });
  after(async () => {
    await database.close();
    await testDb.drop();
  });

  const rejects = (promise: Promise<unknown>, code: string) =>
    assert.rejects(promise, (e: unknown) => e instanceof AppError && e.code === code);

  it('sends a bilingual six-digit code by email and by SMS', async () => {
    const result = await codes.send('register', 'email', ' Ada@Example.com ', 'en');
    assert.deepEqual(result, { expiresInSeconds: 600, resendAfterSeconds: 60 });
    const mail = sender.sent.at(-1)!;
    assert.equal(mail.channel, 'email');
    assert.equal(mail.to, 'ada@example.com');
    assert.equal(mail.subject, 'Herald verification code');
    assert.match(mail.text, /^Your Herald verification code is \d{6}, valid for 10 minutes$/);

    await codes.send('register', 'sms', '138 0013 8000', 'zh-cn');
    const sms = sender.sent.at(-1)!;
    assert.deepEqual([sms.channel, sms.to], ['sms', '13800138000']);
    assert.match(sms.text, /^您的 Herald 验证码为 \d{6}，10 分钟内有效$/);
    assert.equal(sms.subject, undefined);

    await codes.send('login', 'email', 'zh@example.com', 'zh-cn');
    assert.equal(sender.sent.at(-1)!.subject, 'Herald 验证码');
  });

  it('stores only a salted hash of the code', async () => {
    await codes.send('register', 'email', 'hash@example.com', 'en');
    const code = sender.lastCode();
    const rows = await database.db
      .selectFrom('verification_codes')
      .selectAll()
      .where('target', '=', 'hash@example.com')
      .execute();
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.match(row.code_hash, /^[0-9a-f]{64}$/);
    assert.ok(!JSON.stringify(row).includes(code));
    assert.equal(row.expires_at - row.created_at, 10 * MINUTE);
  });

  it('accepts the right code once, for its purpose, channel and target only', async () => {
    await codes.send('password', 'email', 'once@example.com', 'en');
    const code = sender.lastCode();
    assert.equal(await codes.check('register', 'email', 'once@example.com', code), false, 'other purpose');
    assert.equal(await codes.check('password', 'sms', 'once@example.com', code), false, 'other channel');
    assert.equal(await codes.check('password', 'email', 'other@example.com', code), false, 'other target');
    assert.equal(await codes.check('password', 'email', 'ONCE@example.com', ` ${code} `), true);
    assert.equal(await codes.check('password', 'email', 'once@example.com', code), false, 'used');
    await rejects(codes.requireValid('password', 'email', 'once@example.com', code), 'VERIFY_CODE_INVALID');
  });

  it('expires a code after ten minutes', async () => {
    await codes.send('register', 'sms', '13900000001', 'en');
    const code = sender.lastCode();
    clock += 10 * MINUTE + 1;
    assert.equal(await codes.check('register', 'sms', '13900000001', code), false);
  });

  it('allows five checks at most, then the code is dead even when right', async () => {
    await codes.send('register', 'sms', '13900000002', 'en');
    const code = sender.lastCode();
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) {
      await rejects(codes.requireValid('register', 'sms', '13900000002', wrong), 'VERIFY_CODE_INVALID');
    }
    await rejects(
      codes.requireValid('register', 'sms', '13900000002', wrong),
      'VERIFY_CODE_ATTEMPTS_EXCEEDED',
    );
    await rejects(
      codes.requireValid('register', 'sms', '13900000002', code),
      'VERIFY_CODE_ATTEMPTS_EXCEEDED',
    );
    assert.equal(await codes.check('register', 'sms', '13900000002', code), false);
  });

  it('accepts the right code on the fifth check', async () => {
    await codes.send('register', 'sms', '13900000003', 'en');
    const code = sender.lastCode();
    for (let i = 0; i < 4; i++)
      assert.equal(await codes.check('register', 'sms', '13900000003', 'abcdef'), false);
    assert.equal(await codes.check('register', 'sms', '13900000003', code), true);
  });

  it('refuses a second send to the same target within 60 seconds, whatever the purpose', async () => {
    await codes.send('register', 'sms', '13900000004', 'en');
    const first = sender.lastCode();
    clock += 59_000;
    await rejects(codes.send('login', 'sms', '13900000004', 'en'), 'VERIFY_SEND_TOO_SOON');
    await codes.send('register', 'sms', '13900000005', 'en'); // another target is not held up
    clock += 1_001;
    await codes.send('register', 'sms', '13900000004', 'en');
    const second = sender.lastCode();
    if (second !== first) {
      assert.equal(
        await codes.check('register', 'sms', '13900000004', first),
        false,
        'the newer code retires the older',
      );
    }
    assert.equal(await codes.check('register', 'sms', '13900000004', second), true);
  });

  it('caps sends per target at 5 an hour', async () => {
    const target = 'hourly@example.com';
    for (let i = 0; i < 5; i++) {
      await codes.send('register', 'email', target, 'en');
      clock += MINUTE + 1;
    }
    const error = await codes.send('register', 'email', target, 'en').catch((e: unknown) => e);
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'VERIFY_SEND_LIMIT_HOURLY');
    assert.equal(error.status, 429);
    assert.deepEqual(error.params, { limit: 5 });
    clock += 55 * MINUTE; // the first send leaves the hour
    await codes.send('register', 'email', target, 'en');
  });

  it('caps sends per target at 10 in 24 hours', async () => {
    const target = '13900000006';
    for (let i = 0; i < 10; i++) {
      await codes.send('register', 'sms', target, 'en');
      clock += 15 * MINUTE;
    }
    const error = await codes.send('register', 'sms', target, 'en').catch((e: unknown) => e);
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'VERIFY_SEND_LIMIT_DAILY');
    assert.deepEqual(error.params, { limit: 10 });
    clock += 24 * 3600_000 - 10 * 15 * MINUTE + 1;
    await codes.send('register', 'sms', target, 'en');
  });

  it('counts no refused or failed send against the limits', async () => {
    const target = '13900000007';
    sender.failNext = true;
    await rejects(codes.send('register', 'sms', target, 'en'), 'VERIFY_SEND_FAILED');
    await codes.send('register', 'sms', target, 'en'); // no 60-second wait after a failure
    const code = sender.lastCode();
    for (let i = 0; i < 20; i++)
      await rejects(codes.send('register', 'sms', target, 'en'), 'VERIFY_SEND_TOO_SOON');
    clock += MINUTE + 1;
    await codes.send('login', 'sms', target, 'en');
    assert.equal(await codes.check('register', 'sms', target, code), true, 'another purpose keeps its code');
  });

  it("passes the sender's own refusal through, counting nothing", async () => {
    const refusing: CodeSender = {
      sendEmail: async () => {
        throw new AppError('COMMON_UNAVAILABLE', { detail: 'mail' });
      },
      sendSms: async () => undefined,
    };
    const service = new VerificationCodesService(database, refusing, { now: () => clock });
    await rejects(service.send('register', 'email', 'refused@example.com', 'en'), 'COMMON_UNAVAILABLE');
    await service.send('register', 'sms', 'refused@example.com', 'en');
  });

  it('words every refusal in both languages, with the limit', () => {
    const expected = {
      VERIFY_SEND_TOO_SOON: {
        'zh-cn': '发送间隔太短，请1分钟后再试',
        en: 'The sending interval is too short, try again after 1 minute',
      },
      VERIFY_SEND_LIMIT_HOURLY: {
        'zh-cn': '验证码发送过于频繁：每小时最多发送5次，请稍后再试',
        en: 'Too many verification codes: at most 5 per hour, please try again later',
      },
      VERIFY_SEND_LIMIT_DAILY: {
        'zh-cn': '验证码发送过于频繁：24小时内最多发送10次，请明天再试',
        en: 'Too many verification codes: at most 10 per 24 hours, please try again tomorrow',
      },
      VERIFY_CODE_INVALID: {
        'zh-cn': '验证码错误或已失效',
        en: 'Verification code is incorrect or has expired',
      },
      VERIFY_CODE_ATTEMPTS_EXCEEDED: {
        'zh-cn': '验证码错误次数过多，请重新获取验证码',
        en: 'Too many incorrect attempts, please request a new verification code',
      },
      VERIFY_SEND_FAILED: {
        'zh-cn': '验证码发送失败，请稍后再试',
        en: 'Sending the verification code failed, please try again later',
      },
    } as const;
    const params = { VERIFY_SEND_LIMIT_HOURLY: { limit: 5 }, VERIFY_SEND_LIMIT_DAILY: { limit: 10 } };
    for (const [code, messages] of Object.entries(expected)) {
      for (const lang of LANGS) {
        const p = params[code as keyof typeof params] ?? {};
        assert.equal(
          formatMessage(code as keyof typeof expected, lang, p),
          messages[lang],
          `${code} ${lang}`,
        );
      }
    }
  });

  it('prunes codes older than a day', async () => {
    await codes.send('register', 'email', 'prune@example.com', 'en');
    assert.ok((await pruneVerificationCodes(database, clock + 24 * 3600_000 + 1)) >= 1);
    const left = await database.db
      .selectFrom('verification_codes')
      .select('id')
      .where('target', '=', 'prune@example.com')
      .execute();
    assert.equal(left.length, 0);
  });
});

describe('verification codes in the core', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('go out through the notifications service', async () => {
    await t.core.verificationCodes.send('register', 'email', 'core@example.com', 'en');
    const rows = await t.core.database.db
      .selectFrom('verification_codes')
      .select('purpose')
      .where('target', '=', 'core@example.com')
      .execute();
    assert.deepEqual(rows, [{ purpose: 'register' }]);
  });
});
