import { createHash } from 'node:crypto';
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
  const { db } = t.core.database;
  const now = Date.now();
  await db.updateTable('accounts').set({ certification: 'enterprise' }).where('id', '=', accountId).execute();
  await db
    .insertInto('sms_filings')
    .values({
      account_id: accountId,
      handler_name: '张三',
      handler_id_number: 'sealed',
      commitment_file: 'file',
      status: 'passed',
      reject_reason: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const sign = await db
    .insertInto('sms_signs')
    .values({
      account_id: accountId,
      name: '赫耳墨斯',
      sign_type: 'domestic',
      source: 'enterprise',
      status: 'passed',
      reject_reason: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const template = await db
    .insertInto('sms_templates')
    .values({
      account_id: accountId,
      name: `${name}_code`,
      kind: 'sms',
      sms_type: 'code',
      content: '您的验证码是%code%，5分钟内有效。',
      variables: JSON.stringify({ code: '123456' }),
      pages: null,
      sign_id: Number(sign.id),
      status: 'passed',
      reject_reason: null,
      last_sent_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { smsKey } = await t.core.smsUsers.create(
    { accountId },
    { name, cType: options.smsUserType ?? 'normal' },
  );
  return { accountId, smsUser: name, smsKey, signId: Number(sign.id), templateId: Number(template.id) };
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
