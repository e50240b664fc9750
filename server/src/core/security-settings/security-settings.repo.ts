import type { Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { UserSecuritySettingsTable } from '../../db/schema.ts';

type SettingsPatch = Omit<Updateable<UserSecuritySettingsTable>, 'user_id' | 'account_id' | 'updated_at'>;

/** The user with their contact details, login state and security settings (null columns: defaults). */
export async function findUserSecurity({ db }: Database, accountId: number, userId: number) {
  return db
    .selectFrom('users')
    .leftJoin('user_security_settings as s', 's.user_id', 'users.id')
    .select([
      'users.id',
      'users.account_id',
      'users.username',
      'users.email',
      'users.phone',
      'users.is_owner',
      'users.status',
      's.login_verify',
      's.login_verify_way',
      's.download_verify',
      's.sensitive_verify',
      's.totp_bound_at',
      's.protected_login_ack_at',
    ])
    .where('users.account_id', '=', accountId)
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

/** Writes some settings of a user, creating their row with the defaults for the rest. */
export async function upsertSettings(
  { db }: Database,
  accountId: number,
  userId: number,
  patch: SettingsPatch,
  now: number,
): Promise<void> {
  await db
    .insertInto('user_security_settings')
    .values({ user_id: userId, account_id: accountId, ...patch, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ ...patch, updated_at: now })
        .where('user_security_settings.account_id', '=', accountId),
    )
    .execute();
}

export async function findTotp({ db }: Database, accountId: number, userId: number) {
  return db
    .selectFrom('user_security_settings')
    .select(['totp_secret', 'totp_bound_at', 'totp_last_step', 'totp_pending', 'totp_pending_expires_at'])
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Moves the pending secret into place, unless another request bound one first. */
export async function bindTotp(
  { db }: Database,
  accountId: number,
  userId: number,
  binding: { pending: string; step: number },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('user_security_settings')
    .set({
      totp_secret: binding.pending,
      totp_bound_at: now,
      totp_last_step: binding.step,
      totp_pending: null,
      totp_pending_expires_at: null,
      updated_at: now,
    })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('totp_secret', 'is', null)
    .where('totp_pending', '=', binding.pending)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records an accepted TOTP step; false when that step or a later one was already used (a replay,
 * or two requests racing with the same code: exactly one of them wins).
 */
export async function useTotpStep(
  { db }: Database,
  accountId: number,
  userId: number,
  step: number,
): Promise<boolean> {
  const result = await db
    .updateTable('user_security_settings')
    .set({ totp_last_step: step })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('totp_secret', 'is not', null)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
