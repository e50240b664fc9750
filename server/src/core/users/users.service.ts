import type { MenuPermission, UserBalance, UserInfo } from '@herald/shared';
import { AppError, type PermissionCode } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import * as accounts from '../accounts/accounts.repo.ts';
import type { UserCaller } from '../context.ts';
import { balanceOf } from '../ledger/ledger.repo.ts';
import { loadAccess, type UserAccess } from '../members/member-access.ts';
import * as repo from './users.repo.ts';

/** The codes held at read or full, in code order: an owner holds every code. */
export function permissionsOf(access: UserAccess): PermissionCode[] {
  return [...access.levels.keys()];
}

export class UsersService {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  async info(ctx: UserCaller): Promise<UserInfo> {
    const user = await this.load(ctx);
    const account = await accounts.findAccount(this.database, ctx.accountId);
    return {
      userId: user.id,
      accountId: user.account_id,
      userName: user.username,
      email: user.email,
      phone: user.phone,
      accountType: user.is_owner === 1 ? 'main' : 'member',
      isHuaweiYunUser: account?.is_huawei_yun === 1 ? 1 : 0,
      platformOperator: account?.kind === 'platform',
    };
  }

  async menuPermissions(ctx: UserCaller): Promise<MenuPermission[]> {
    const access = await loadAccess(this.database, ctx, await this.load(ctx));
    return [...access.levels].map(([code, level]) => ({ id: code, code, level }));
  }

  async balance(ctx: UserCaller): Promise<UserBalance> {
    return { balance: await balanceOf(this.database, ctx.accountId), currency: 'CNY' };
  }

  private async load(ctx: UserCaller) {
    const user = await repo.findUser(this.database, ctx.accountId, ctx.userId);
    if (!user) throw new AppError('AUTH_REQUIRED');
    return user;
  }
}
