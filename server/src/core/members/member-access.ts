import {
  ALL_PERMISSION_CODES,
  effectiveLevels,
  type PermissionCode,
  type PermissionLevel,
  type PermissionLevels,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { UsersTable } from '../../db/schema.ts';
import { findLevels } from './member-permissions.repo.ts';

/**
 * What a user may do, resolved once per request: the codes held and at which level, and whether
 * the user is a visitor (view only everywhere, downloads refused even outside a code). The owner
 * holds every code at full; members follow their type (shared/member-presets.ts).
 */
export interface UserAccess {
  levels: ReadonlyMap<PermissionCode, PermissionLevel>;
  viewOnly: boolean;
}

type AccessUser = Pick<UsersTable, 'is_owner' | 'member_type'>;

const OWNER: UserAccess = {
  levels: new Map(ALL_PERMISSION_CODES.map((code) => [code, 'full'])),
  viewOnly: false,
};

export function accessOf(user: AccessUser, custom: PermissionLevels = {}): UserAccess {
  if (user.is_owner === 1) return OWNER;
  const type = user.member_type ?? 'custom';
  return { levels: effectiveLevels(type, custom), viewOnly: type === 'visitor' };
}

/** Reads the stored levels only for a custom member: other types need no query. */
export async function loadAccess(
  database: Database,
  ctx: { accountId: number; userId: number },
  user: AccessUser,
): Promise<UserAccess> {
  const custom =
    user.is_owner !== 1 && (user.member_type ?? 'custom') === 'custom'
      ? await findLevels(database, ctx.accountId, ctx.userId)
      : {};
  return accessOf(user, custom);
}

/** Codes held for viewing only. */
export function readOnlyCodes(access: UserAccess): PermissionCode[] {
  return [...access.levels].filter(([, level]) => level === 'read').map(([code]) => code);
}
