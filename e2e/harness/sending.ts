import type { Herald } from '@herald/test-peers';
import { createApiUser, createDomain, type DomainKey } from '../../server/test/fixtures/factory.ts';
import type { TestUser } from './accounts.ts';
import { withHeraldDatabase } from './database.ts';

/**
 * The sending set-up as the domains and API_USER screens leave it, written straight into a
 * running Herald's database by the fixture factory (verified sending domains, API_USERs and their
 * keys), and SendCloud-style calls to /apiv2 made with the API_USER's key as a plain form post.
 */

export interface VerifiedDomainOptions {
  /** A real key for mail that must be signed (made for the account the domain is written to). */
  dkim?: (accountId: number) => Promise<DomainKey>;
}

/** The account `user` belongs to. */
async function accountIdOf(herald: Herald, user: TestUser): Promise<number> {
  return withHeraldDatabase(herald, async ({ db }) => {
    const row = await db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', user.userName)
      .executeTakeFirstOrThrow();
    return Number(row.account_id);
  });
}

/**
 * A sending domain of `user`'s account as the DNS check leaves it: verified, and checked just now
 * (so the periodic re-check leaves it alone).
 */
export async function writeVerifiedDomain(
  herald: Herald,
  user: TestUser,
  name: string,
  options: VerifiedDomainOptions = {},
): Promise<{ accountId: number; domainId: number }> {
  const accountId = await accountIdOf(herald, user);
  const key = options.dkim ? await options.dkim(accountId) : undefined;
  const domain = await withHeraldDatabase(herald, (database) =>
    createDomain(database, accountId, { name, key, checkedNow: true }),
  );
  return { accountId, domainId: domain.id };
}

/** An API_USER's credentials, as every /apiv2 call carries them. */
export interface ApiCredentials {
  apiUser: string;
  apiKey: string;
}

export interface SendingSetup extends VerifiedDomainOptions {
  /** The verified sending domain's name. */
  domain: string;
  /** The API_USER's name. */
  apiUser: string;
  emailType?: 'trigger' | 'batch';
}

/**
 * A verified sending domain of `user`'s account with an API_USER on it holding a fresh key:
 * what a user has after the domain and API_USER screens. Returns the credentials to send with.
 */
export async function writeSendingSetup(
  herald: Herald,
  user: TestUser,
  setup: SendingSetup,
): Promise<ApiCredentials> {
  const { accountId, domainId } = await writeVerifiedDomain(herald, user, setup.domain, setup);
  const apiUser = await withHeraldDatabase(herald, (database) =>
    createApiUser(database, accountId, { name: setup.apiUser, emailType: setup.emailType, domainId }),
  );
  return { apiUser: apiUser.name, apiKey: apiUser.apiKey };
}

/** The envelope every /apiv2 answer comes in. */
export interface Apiv2Envelope<Info> {
  result: boolean;
  statusCode: number;
  message: string;
  info: Info;
}

/** POSTs `fields` with the credentials to /apiv2/`action` as SendCloud's documentation does. */
export function apiv2Request(
  herald: Herald,
  credentials: ApiCredentials,
  action: string,
  fields: Record<string, string>,
): Promise<Response> {
  return fetch(`${herald.url}/apiv2/${action}`, {
    method: 'POST',
    body: new URLSearchParams({ apiUser: credentials.apiUser, apiKey: credentials.apiKey, ...fields }),
  });
}

/** An /apiv2 call's envelope, whatever its HTTP status. */
export async function apiv2<Info = Record<string, unknown>>(
  herald: Herald,
  credentials: ApiCredentials,
  action: string,
  fields: Record<string, string>,
): Promise<Apiv2Envelope<Info>> {
  const res = await apiv2Request(herald, credentials, action, fields);
  return (await res.json()) as Apiv2Envelope<Info>;
}

export interface MailFields {
  from: string;
  /** Recipients, `;`-separated. */
  to: string;
  subject: string;
  html: string;
}

/** mail/send: the mail accepted (or not), with the emailIds of its recipients. */
export function sendMail(
  herald: Herald,
  credentials: ApiCredentials,
  mail: MailFields,
): Promise<Apiv2Envelope<{ emailIdList: string[] }>> {
  return apiv2(herald, credentials, 'mail/send', { ...mail });
}
