import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app.ts';
import { bearer, type SignedIn } from '../helpers/members.ts';

/** Calls of the API_USER tests: console requests as a member, SendCloud-style form posts. */
export type Inject = (
  method: string,
  url: string,
  who: SignedIn | null,
  payload?: object,
  lang?: string,
) => Promise<LightMyRequestResponse>;

export function injector(t: TestApp): Inject {
  return (method, url, who, payload, lang = 'en') =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...(who ? bearer(who.token) : {}), lang },
      ...(payload ? { payload } : {}),
    });
}

// biome-ignore lint/suspicious/noExplicitAny: an envelope's info is loose JSON, read field by field in assertions
type Loose = Record<string, any>;

/** A SendCloud-style call: a plain form post, as SendCloud's documentation shows. */
export function apiv2(t: TestApp, action: string, fields: Record<string, string>, lang = 'en') {
  return t.app
    .inject({
      method: 'POST',
      url: `/apiv2/${action}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang },
      payload: new URLSearchParams(fields).toString(),
    })
    .then((res) => res.json() as { result: boolean; statusCode: number; message: string; info: Loose });
}

/** Verifies the caller's session for sensitive operations with an emailed code, as the dialog does. */
export async function verifySession(t: TestApp, who: SignedIn, email: string): Promise<void> {
  const call = injector(t);
  const sent = await call('POST', '/v3/api/verify/sendEmailCode', who, {});
  if (sent.statusCode !== 200) throw new Error(`sendEmailCode: ${sent.body}`);
  const row = await t.core.database.db
    .selectFrom('system_messages')
    .select('body')
    .where('recipient', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const code = /\b(\d{6})\b/.exec(row.body)?.[1];
  if (!code) throw new Error('no code in the verification mail');
  const res = await call('POST', '/v3/api/verify/sys', who, { way: 'email', code });
  if (res.statusCode !== 200) throw new Error(`verify/sys: ${res.body}`);
}
