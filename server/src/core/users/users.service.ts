import { ALL_PERMISSION_CODES, AppError, type PermissionCode } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import * as accounts from '../accounts/accounts.repo.ts';
import type { Ctx } from '../context.ts';
import * as repo from './users.repo.ts';

export interface UserInfo {
  userId: number;
  accountId: number;
  userName: string;
  email: string;
  phone: string | null;
  accountType: 'main' | 'member';
  isHuaweiYunUser: 0 | 1;
}

/** A console menu the user may open; menu ids are the permission codes (console-spec §3, §6). */
export interface MenuPermission {
  id: number;
  code: PermissionCode;
}

/** An account owner holds every code; a member holds the codes the owner granted. */
export function permissionsOf(user: { is_owner: number; permissions: string }): PermissionCode[] {
  if (user.is_owner === 1) return [...ALL_PERMISSION_CODES];
  const granted = new Set(user.permissions.split(',').filter(Boolean).map(Number));
  return ALL_PERMISSION_CODES.filter((code) => granted.has(code));
}

export class UsersService {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  async info(ctx: Ctx): Promise<UserInfo> {
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
    };
  }

  async menuPermissions(ctx: Ctx): Promise<MenuPermission[]> {
    const user = await this.load(ctx);
    return permissionsOf(user).map((code) => ({ id: code, code }));
  }

  async balance(ctx: Ctx): Promise<{ balance: number; currency: 'CNY' }> {
    const account = await accounts.findAccount(this.database, ctx.accountId);
    if (!account) throw new AppError('COMMON_NOT_FOUND', { entity: 'Account' });
    return { balance: account.balance_fen, currency: 'CNY' };
  }

  private async load(ctx: Ctx) {
    const user = await repo.findUser(this.database, ctx.accountId, ctx.userId);
    if (!user) throw new AppError('AUTH_REQUIRED');
    return user;
  }
}
