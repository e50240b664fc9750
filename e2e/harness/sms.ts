import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Herald, SmppCarrier } from '@herald/test-peers';
import { SmsCarriersService } from '../../server/src/core/sms-carriers/sms-carriers.service.ts';
import { loadSecretKey, SecretBox } from '../../server/src/lib/secret-box.ts';
import { createSmsSender } from '../../server/test/fixtures/sms-factory.ts';
import { sign } from '../../server/test/sms/sms-fixtures.ts';
import type { TestUser } from './accounts.ts';
import { withHeraldDatabase } from './database.ts';

/**
 * The SMS set-up only the platform operator does, from the CLI (`sms:carrier`, `sms:route`):
 * written through the server's own service into a running Herald's database, the password sealed
 * with that Herald's secret key, so its SMS channel connects to the loopback carrier.
 */

/** The secret box of a running Herald (its key file in the data directory). */
export function heraldSecretBox(herald: Herald): SecretBox {
  return new SecretBox(loadSecretKey({ dataDir: herald.dataDir, secretKey: undefined }));
}

export interface SmsCarrierSetup {
  /** The carrier's name in Herald; default `peer`. */
  name?: string;
  /** The loopback carrier's account Herald binds with; default herald / secret. */
  systemId?: string;
  password?: string;
  sourceAddr?: string;
  /** The country routed to it; default CN. */
  country?: string;
}

/** The loopback SMPP `carrier` as a carrier of `herald` with a route for one country. */
export async function writeSmsCarrier(
  herald: Herald,
  carrier: SmppCarrier,
  setup: SmsCarrierSetup = {},
): Promise<void> {
  const name = setup.name ?? 'peer';
  await withHeraldDatabase(herald, async (database) => {
    const carriers = new SmsCarriersService(database, heraldSecretBox(herald));
    await carriers.save({
      name,
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: setup.systemId ?? 'herald',
      password: setup.password ?? 'secret',
      ...(setup.sourceAddr ? { sourceAddr: setup.sourceAddr } : {}),
    });
    await carriers.addRoute({ carrier: name, country: setup.country ?? 'CN' });
  });
}

/** A testbed user's account made ready to send SMS through the SMS API, with a known SMS_KEY. */
export interface SmsSender {
  accountId: number;
  smsUser: string;
  templateId: number;
  /** The passed signature of its template. */
  signId: number;
  /** A signed `/smsapi/send` of the template to one number; fails the test unless it is accepted. */
  send(phone: string, vars?: Record<string, string>): Promise<void>;
}

/**
 * What the SMS areas would leave behind (certification, filing, a passed signature and template,
 * an SMS_USER), written for `owner`'s account as the server fixtures write it.
 */
export async function smsSenderOf(herald: Herald, owner: TestUser, smsUser: string): Promise<SmsSender> {
  const smsKey = randomBytes(32).toString('base64url');
  const { accountId, templateId, signId } = await withHeraldDatabase(herald, async (database) => {
    const user = await database.db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    const made = await createSmsSender(database, heraldSecretBox(herald), {
      accountId: Number(user.account_id),
      smsUser,
      smsKey,
    });
    return { accountId: Number(user.account_id), templateId: made.templateId, signId: made.signId };
  });
  return {
    accountId,
    smsUser,
    templateId,
    signId,
    async send(phone, vars = { code: '4321' }) {
      const params = { smsUser, templateId: String(templateId), phone, vars: JSON.stringify(vars) };
      const res = await fetch(`${herald.url}/smsapi/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...params, signature: sign(smsKey, params) }).toString(),
      });
      const body = (await res.json()) as { statusCode: number };
      assert.equal(body.statusCode, 200, JSON.stringify(body));
    },
  };
}
