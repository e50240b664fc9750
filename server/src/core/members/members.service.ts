import { randomBytes } from 'node:crypto';
import {
  AppError,
  type Lang,
  MEMBER_MAX,
  MEMBER_PRESETS,
  type MemberInviteInput,
  type MemberPreset,
  type MemberUpdateInput,
  type MemberView,
  type PermissionLevels,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { UserCaller } from '../context.ts';
import type { SessionsService } from '../sessions/sessions.service.ts';
import * as users from '../users/users.repo.ts';
import { accessOf } from './member-access.ts';
import type { MemberInvitations } from './member-invitations.service.ts';
import * as levelsRepo from './member-permissions.repo.ts';
import * as repo from './members.repo.ts';

export interface MembersDeps {
  database: Database;
  sessions: SessionsService;
  invitations: MemberInvitations;
}

/**
 * The account's teammates: invite, list, change, remove. Only the owner and administrators reach
 * the changing calls: the guard asks for code 2 at full, which no custom teammate can hold. A
 * member id of another account is simply not found, since every query is scoped to the caller's
 * account.
 */
export class MembersService {
  readonly invitations: MemberInvitations;
  private readonly deps: MembersDeps;

  constructor(deps: MembersDeps) {
    this.deps = deps;
    this.invitations = deps.invitations;
  }

  async list(ctx: UserCaller): Promise<MemberView[]> {
    const rows = await repo.listMembers(this.deps.database, ctx.accountId);
    const levels = await levelsRepo.findAccountLevels(this.deps.database, ctx.accountId);
    return rows.map((row) => view(row, levels.get(row.id)));
  }

  async detail(ctx: UserCaller, userId: number): Promise<MemberView> {
    const row = await this.find(ctx, userId);
    return view(row, await levelsRepo.findLevels(this.deps.database, ctx.accountId, userId));
  }

  /** Adds a pending teammate and mails the invitation; at most MEMBER_MAX per account. */
  async invite(ctx: UserCaller, input: MemberInviteInput, lang: Lang): Promise<MemberView> {
    const { database } = this.deps;
    if (await users.isEmailTaken(database, input.email)) throw new AppError('EMAIL_TAKEN');
    let userId: number;
    try {
      userId = await database.db.transaction().execute(async (trx) => {
        const scoped = { ...database, db: trx };
        const now = Date.now();
        await repo.lockAccount(scoped, ctx.accountId, now);
        if ((await repo.countMembers(scoped, ctx.accountId)) >= MEMBER_MAX)
          throw new AppError('MEMBER_LIMIT_REACHED', { max: MEMBER_MAX });
        const id = await users.insertUser(
          scoped,
          {
            accountId: ctx.accountId,
            // Not a valid user name, so no one can sign up with it; the invitee picks theirs.
            username: `invite.${randomBytes(12).toString('hex')}`,
            email: input.email,
            phone: null,
            passwordHash: null,
            isOwner: false,
            status: 'inactive',
            member: {
              type: input.type,
              displayName: input.name ?? null,
              roles: input.roles,
              invitedBy: ctx.userId,
            },
          },
          now,
        );
        await levelsRepo.replaceLevels(scoped, ctx.accountId, id, input.levels);
        return id;
      });
    } catch (error) {
      if (!(error instanceof AppError) && (await users.isEmailTaken(database, input.email)))
        throw new AppError('EMAIL_TAKEN');
      throw error;
    }
    const member = { accountId: ctx.accountId, userId };
    await this.invitations.send(member, lang);
    return this.detail(ctx, userId);
  }

  /** Renames a teammate and/or replaces their access; a member cannot change their own access. */
  async update(ctx: UserCaller, input: MemberUpdateInput): Promise<MemberView> {
    const { database } = this.deps;
    await this.find(ctx, input.userId);
    const { access } = input;
    if (access && input.userId === ctx.userId) throw new AppError('MEMBER_SELF_CHANGE');
    await database.db.transaction().execute(async (trx) => {
      const scoped = { ...database, db: trx };
      const patch = access
        ? { displayName: input.name, type: access.type, roles: access.roles }
        : { displayName: input.name };
      await repo.updateMember(scoped, ctx.accountId, input.userId, patch, Date.now());
      if (access) await levelsRepo.replaceLevels(scoped, ctx.accountId, input.userId, access.levels);
    });
    return this.detail(ctx, input.userId);
  }

  /** Removes a teammate: their sessions end at once and their seat is free again. */
  async remove(ctx: UserCaller, userId: number): Promise<void> {
    await this.find(ctx, userId);
    if (userId === ctx.userId) throw new AppError('MEMBER_SELF_CHANGE');
    const member = { accountId: ctx.accountId, userId };
    await this.deps.sessions.revokeAll(member);
    await repo.deleteMember(this.deps.database, ctx.accountId, userId);
  }

  /** A new invitation mail for a teammate who has not joined; the previous link stops working. */
  async resendInvite(ctx: UserCaller, userId: number, lang: Lang): Promise<void> {
    const row = await this.find(ctx, userId);
    if (row.status !== 'inactive') throw new AppError('MEMBER_ALREADY_JOINED');
    await this.invitations.send({ accountId: ctx.accountId, userId }, lang);
  }

  private async find(ctx: UserCaller, userId: number): Promise<repo.MemberRow> {
    const row = await repo.findMember(this.deps.database, ctx.accountId, userId);
    if (!row) throw new AppError('MEMBER_NOT_FOUND');
    return row;
  }
}

function view(row: repo.MemberRow, custom: PermissionLevels = {}): MemberView {
  const type = row.member_type ?? 'custom';
  const joined = row.status !== 'inactive';
  return {
    userId: row.id,
    name: row.display_name,
    userName: joined ? row.username : null,
    email: row.email,
    type,
    roles: row.member_roles
      .split(',')
      .filter((r): r is MemberPreset => (MEMBER_PRESETS as readonly string[]).includes(r)),
    levels: Object.fromEntries(accessOf(row, custom).levels),
    state: joined ? 'joined' : 'toActivate',
    createdAt: row.created_at,
    lastLoginAt: row.last_login_at === null ? null : Number(row.last_login_at),
  };
}
