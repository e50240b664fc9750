import { randomBytes } from 'node:crypto';
import type { Herald } from '@herald/test-peers';
import { hashApiKey } from '../../server/src/core/api-users/api-user-auth.ts';
import type { TestUser } from './accounts.ts';
import { withHeraldDatabase } from './database.ts';

/**
 * The sending set-up as the domains and API_USER screens leave it, written straight into a
 * running Herald's database (verified sending domains, API_USERs and their keys), and
 * SendCloud-style calls to /apiv2 made with the API_USER's key as a plain form post.
 */

/** A verified sending domain's DKIM key; a placeholder (nothing can be signed) by default. */
export interface DkimKey {
  selector: string;
  publicKey: string;
  privateKeySealed: string;
}

const PLACEHOLDER_DKIM: DkimKey = {
  selector: 'herald',
  publicKey: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA',
  privateKeySealed: 'sealed',
};

export interface VerifiedDomainOptions {
  /** A real key for mail that must be signed (made for the account the domain is written to). */
  dkim?: (accountId: number) => Promise<DkimKey>;
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
  const key = options.dkim ? await options.dkim(accountId) : PLACEHOLDER_DKIM;
  return withHeraldDatabase(herald, async ({ db }) => {
    const now = Date.now();
    const domain = await db
      .insertInto('sending_domains')
      .values({
        account_id: accountId,
        name,
        status: 'verified',
        dkim_selector: key.selector,
        dkim_public_key: key.publicKey,
        dkim_private_key_sealed: key.privateKeySealed,
        verify_key: 'e2e',
        checked_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { accountId, domainId: Number(domain.id) };
  });
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
  const apiKey = randomBytes(24).toString('base64url');
  await withHeraldDatabase(herald, async ({ db }) => {
    const now = Date.now();
    const apiUser = await db
      .insertInto('api_users')
      .values({
        account_id: accountId,
        name: setup.apiUser,
        email_type: setup.emailType ?? 'trigger',
        domain_id: domainId,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('api_keys')
      .values({
        account_id: accountId,
        api_user_id: Number(apiUser.id),
        key_hash: hashApiKey(apiKey),
        key_hint: apiKey.slice(-4),
        created_at: now,
      })
      .execute();
  });
  return { apiUser: setup.apiUser, apiKey };
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
