import type { IpWhitelist } from '@herald/shared';
import {
  AppError,
  IP_WHITELIST_MAX,
  type IpRange,
  ipInRanges,
  PERMISSIONS,
  parseIpEntry,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller, UserCaller } from '../context.ts';
import { loadAccess } from '../members/member-access.ts';
import * as repo from './ip-whitelist.repo.ts';

const splitEntries = (entries: string) => entries.split('\n').filter(Boolean);

function rangesOf(entries: readonly string[]): IpRange[] {
  return entries.map(parseIpEntry).filter((range): range is IpRange => range !== null);
}

/**
 * The account's IP whitelist (product-spec §5, console-spec §6). While it is on, logins and every
 * console API call of the account's users from an address outside it are refused: the login in
 * AuthService (through LoginProtection), API calls in the session authenticator, so no route can
 * forget. Entries were validated by the shared schema (no internal ranges, at most 20). It guards
 * the whole team, so it is changed by those who manage the team: the owner and administrators,
 * who hold the teammates code (2) at full; a visitor or a custom teammate (who holds code 2 at
 * most at read) is refused. Never so that it excludes the address it is changed from: a
 * whitelist that locks its manager out could not be undone from the console.
 */
export class IpWhitelistService {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  async get(ctx: UserCaller): Promise<IpWhitelist> {
    const row = await repo.findWhitelist(this.database, ctx.accountId);
    return {
      enabled: row?.enabled === 1,
      ips: row ? splitEntries(row.entries) : [],
      max: IP_WHITELIST_MAX,
      updatedAt: row?.updated_at ?? null,
    };
  }

  /** Replaces the entries (already validated and normalised by ipWhitelistSchema). */
  async save(ctx: UserCaller, ips: readonly string[], callerIp: string): Promise<IpWhitelist> {
    await this.requireManager(ctx);
    if (ips.length > IP_WHITELIST_MAX) throw new AppError('COMMON_VALIDATION_FAILED');
    const current = await this.get(ctx);
    if (current.enabled) this.requireIncludes(ips, callerIp);
    await repo.upsertWhitelist(this.database, ctx.accountId, { entries: ips.join('\n') }, Date.now());
    return this.get(ctx);
  }

  async setEnabled(ctx: UserCaller, enabled: boolean, callerIp: string): Promise<IpWhitelist> {
    await this.requireManager(ctx);
    if (enabled) this.requireIncludes((await this.get(ctx)).ips, callerIp);
    await repo.upsertWhitelist(this.database, ctx.accountId, { enabled: enabled ? 1 : 0 }, Date.now());
    return this.get(ctx);
  }

  /** Throws IP_NOT_WHITELISTED when the account's whitelist is on and does not admit the address. */
  async requireAllowed({ accountId }: Caller, ip: string | undefined): Promise<void> {
    const row = await repo.findWhitelist(this.database, accountId);
    if (row?.enabled !== 1) return;
    if (ip && ipInRanges(ip, rangesOf(splitEntries(row.entries)))) return;
    throw new AppError('IP_NOT_WHITELISTED', { ip: ip ?? '-' });
  }

  private requireIncludes(ips: readonly string[], callerIp: string): void {
    if (!ipInRanges(callerIp, rangesOf(ips)))
      throw new AppError('IP_WHITELIST_SELF_EXCLUDED', { ip: callerIp });
  }

  /** Throws unless the caller may change the whitelist (checked before asking for a verification). */
  async requireManager(ctx: UserCaller): Promise<void> {
    const user = await repo.findTeamRole(this.database, ctx.accountId, ctx.userId);
    if (!user) throw new AppError('AUTH_REQUIRED');
    const access = await loadAccess(this.database, ctx, user);
    if (access.viewOnly) throw new AppError('AUTH_READ_ONLY');
    if (access.levels.get(PERMISSIONS.TEAMMATES) !== 'full') throw new AppError('AUTH_PERMISSION_DENIED');
  }
}
