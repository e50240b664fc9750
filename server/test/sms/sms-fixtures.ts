import { createHash, randomBytes } from 'node:crypto';
import { createSmsSender } from '../fixtures/sms-factory.ts';
import type { TestApp } from '../helpers/app.ts';

/** An account made ready to send SMS the way an operator and the user would: certified, filed, with a passed signature and template. */
export interface SmsReady {
  accountId: number;
  smsUser: string;
  smsKey: string;
  signId: number;
  /** A passed domestic SMS template: `您的验证码是%code%，5分钟内有效。` */
  templateId: number;
}

export async function smsReadyAccount(
  t: TestApp,
  accountId: number,
  name: string,
  options: { smsUserType?: 'normal' | 'test' } = {},
): Promise<SmsReady> {
  const smsKey = randomBytes(32).toString('base64url');
  const made = await createSmsSender(t.core.database, t.core.secretBox, { accountId, smsUser: name, smsKey });
  if (options.smsUserType === 'test') {
    await t.core.database.db
      .updateTable('sms_users')
      .set({ c_type: 'test' })
      .where('id', '=', made.smsUserId)
      .execute();
  }
  return { accountId, smsUser: name, smsKey, signId: made.signId, templateId: made.templateId };
}

/** SendCloud's SMS signature, written here from the reference on its own (not Herald's function). */
export function sign(key: string, params: Record<string, string>): string {
  const text = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return createHash('md5').update(`${key}&${text}&${key}`).digest('hex');
}

/** One /smsapi call with its signature, as a form post. */
export async function smsapi(
  t: TestApp,
  action: string,
  ready: Pick<SmsReady, 'smsUser' | 'smsKey'>,
  params: Record<string, string>,
  lang = 'en',
) {
  const all = { smsUser: ready.smsUser, ...params };
  const body = new URLSearchParams({ ...all, signature: sign(ready.smsKey, all) }).toString();
  const res = await t.app.inject({
    method: 'POST',
    url: `/smsapi/${action}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': lang },
    payload: body,
  });
  return {
    status: res.statusCode,
    body: res.json() as {
      result: boolean;
      statusCode: number;
      message: string;
      info: Record<string, unknown>;
    },
  };
}
