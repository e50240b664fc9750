import { randomBytes } from 'node:crypto';
import { isStrongPassword } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { hashPassword } from '../auth/password.ts';
import { findPlatformAccount } from './accounts.repo.ts';
import type { AccountsService } from './accounts.service.ts';

export const OPERATOR_USERNAME = 'admin';

/**
 * On the first start of an empty database, the platform's own account and its operator are
 * created so that a newcomer can log in right after `npm start`. The password comes from
 * HERALD_ADMIN_PASSWORD or is generated and printed once, in this one log line.
 */
export async function ensurePlatformOperator(
  database: Database,
  accounts: AccountsService,
  options: { password?: string; email: string },
  logger: Logger,
): Promise<void> {
  const existing = await findPlatformAccount(database);
  if (existing) return;
  const generated = !options.password;
  const password = options.password ?? generatePassword();
  try {
    await accounts.createWithOwner({
      username: OPERATOR_USERNAME,
      email: options.email,
      passwordHash: await hashPassword(password),
      status: 'active',
      kind: 'platform',
    });
  } catch (error) {
    // Another process starting at the same moment created it first.
    if (await findPlatformAccount(database)) return;
    throw error;
  }
  if (generated) {
    logger.warn(
      { operator: OPERATOR_USERNAME, initialPassword: password },
      'first start: created the platform operator account; log in and change this password (it is not shown again)',
    );
  } else {
    logger.info({ operator: OPERATOR_USERNAME }, 'first start: created the platform operator account');
  }
}

export function generatePassword(): string {
  for (;;) {
    const candidate = `${randomBytes(9).toString('base64url')}#7`;
    if (isStrongPassword(candidate)) return candidate;
  }
}
