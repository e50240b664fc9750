import type { PermissionCode } from '@herald/shared';
import { AppError } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { UserCaller } from '../context.ts';
import { replaceLevels } from '../members/member-permissions.repo.ts';
import * as users from '../users/users.repo.ts';
import * as repo from './accounts.repo.ts';

export interface NewAccount {
  username: string;
  email: string;
  phone?: string | null;
  passwordHash?: string | null;
  status: 'inactive' | 'active' | 'suspended';
  kind?: 'customer' | 'platform';
}

export class AccountsService {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /** A tenant with its owner, who holds every permission code. */
  async createWithOwner(input: NewAccount): Promise<UserCaller> {
    return this.database.db.transaction().execute(async (trx) => {
      const scoped = { ...this.database, db: trx };
      const now = Date.now();
      const accountId = await repo.insertAccount(scoped, input.username, input.kind ?? 'customer', now);
      const userId = await users.insertUser(
        scoped,
        {
          accountId,
          username: input.username,
          email: input.email,
          phone: input.phone ?? null,
          passwordHash: input.passwordHash ?? null,
          isOwner: true,
          status: input.status,
        },
        now,
      );
      return { accountId, userId };
    });
  }

  /**
   * An active teammate of the account, added directly (operators, tests): a custom member holding
   * the given codes at full. Invitations by the team go through the members service.
   */
  async addMember(
    ctx: UserCaller,
    input: Omit<NewAccount, 'status'> & { permissions: readonly PermissionCode[] },
  ): Promise<UserCaller> {
    return this.database.db.transaction().execute(async (trx) => {
      const scoped = { ...this.database, db: trx };
      const userId = await users.insertUser(
        scoped,
        {
          accountId: ctx.accountId,
          username: input.username,
          email: input.email,
          phone: input.phone ?? null,
          passwordHash: input.passwordHash ?? null,
          isOwner: false,
          status: 'active',
          member: { type: 'custom', invitedBy: ctx.userId },
        },
        Date.now(),
      );
      const levels = Object.fromEntries(input.permissions.map((code) => [code, 'full' as const]));
      await replaceLevels(scoped, ctx.accountId, userId, levels);
      return { accountId: ctx.accountId, userId };
    });
  }

  /** The user a login name (user name or email) belongs to, as a context; 404 when none. */
  async findByLoginName(loginName: string): Promise<UserCaller & { username: string; status: string }> {
    const user = await users.findByLoginName(this.database, loginName);
    if (!user) throw new AppError('COMMON_NOT_FOUND', { entity: loginName });
    return { accountId: user.account_id, userId: user.id, username: user.username, status: user.status };
  }

  setStatus(ctx: UserCaller, status: 'inactive' | 'active' | 'suspended'): Promise<void> {
    return users.setStatus(this.database, ctx.accountId, ctx.userId, status, Date.now());
  }

  /** Sets a new password hash and lifts a lockout. */
  setPasswordHash(ctx: UserCaller, passwordHash: string): Promise<void> {
    return users.setPassword(this.database, ctx.accountId, ctx.userId, passwordHash, Date.now());
  }

  setHuaweiYun(ctx: UserCaller, flag: boolean): Promise<void> {
    return repo.setHuaweiYun(this.database, ctx.accountId, flag);
  }
}
