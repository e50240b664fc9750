import { AppError, type InvitationView, type Lang, type MemberAcceptInput } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { AccountTokensService } from '../account-tokens/account-tokens.service.ts';
import { insertLoginEvent } from '../auth/login-events.repo.ts';
import { hashPassword } from '../auth/password.ts';
import type { UserCaller } from '../context.ts';
import { inviteMail, type SystemMailer } from '../registration/account-mail.ts';
import type { SessionsService } from '../sessions/sessions.service.ts';
import * as users from '../users/users.repo.ts';
import * as repo from './members.repo.ts';

export interface InvitationDeps {
  database: Database;
  tokens: AccountTokensService;
  sessions: SessionsService;
  mailer: SystemMailer;
  /** Base of the links in mails, e.g. https://herald.example.com */
  publicUrl: string;
}

/**
 * Teammate invitations. An invited member is a user of the account in state `inactive` with a
 * placeholder login name and no password; the emailed link (an `invite` account token, 7 days,
 * single use, retired by a resend) lets them pick both, which activates them and logs them in.
 */
export class MemberInvitations {
  private readonly deps: InvitationDeps;

  constructor(deps: InvitationDeps) {
    this.deps = deps;
  }

  /** Mails a fresh link to a pending member; their earlier links stop working. */
  async send(member: UserCaller, lang: Lang): Promise<void> {
    const invitation = await this.load(member);
    const token = await this.deps.tokens.issue(member, 'invite');
    const link = `${this.deps.publicUrl}/access/member/invite?token=${encodeURIComponent(token)}&lang=${lang}`;
    const mail = inviteMail(lang, invitation, link);
    await this.deps.mailer.sendEmail({ to: invitation.email, ...mail });
  }

  /** Who invited whom to which account; 410 when the link is unknown, used, expired or retired. */
  async show(token: string): Promise<InvitationView> {
    const member = await this.deps.tokens.peek(token, 'invite');
    if (!member) throw new AppError('MEMBER_INVITE_INVALID');
    return this.load(member);
  }

  /** Sets the invitee's login name and password, activates them and opens their first session. */
  async accept(
    input: MemberAcceptInput,
    client: { ip?: string; userAgent?: string } = {},
  ): Promise<{ token: string; ctx: UserCaller }> {
    const { database, tokens, sessions } = this.deps;
    await this.show(input.token);
    if (await users.isUserNameTaken(database, input.userName)) throw new AppError('USER_NAME_TAKEN');
    const passwordHash = await hashPassword(input.password);
    const now = Date.now();
    let ctx: UserCaller;
    try {
      ctx = await database.db.transaction().execute(async (trx) => {
        const scoped = { ...database, db: trx };
        const member = await tokens.consume(input.token, 'invite', scoped);
        const login = { username: input.userName, passwordHash };
        if (!member || !(await repo.acceptInvite(scoped, member.accountId, member.userId, login, now)))
          throw new AppError('MEMBER_INVITE_INVALID');
        return member;
      });
    } catch (error) {
      // Two invitees racing for one name: the unique index decides, the link stays usable.
      if (!(error instanceof AppError) && (await users.isUserNameTaken(database, input.userName)))
        throw new AppError('USER_NAME_TAKEN');
      throw error;
    }
    await insertLoginEvent(
      database,
      {
        accountId: ctx.accountId,
        userId: ctx.userId,
        loginName: input.userName,
        ip: client.ip ?? null,
        userAgent: client.userAgent ?? null,
        result: 'success',
      },
      now,
    );
    return { token: await sessions.create(ctx, client), ctx };
  }

  private async load(member: UserCaller): Promise<InvitationView> {
    const row = await repo.findInvitation(this.deps.database, member.accountId, member.userId);
    if (row?.status !== 'inactive') throw new AppError('MEMBER_INVITE_INVALID');
    return {
      accountName: row.account_name,
      inviterName: row.inviter_display_name ?? row.inviter_username ?? row.owner_username ?? row.account_name,
      email: row.email,
      name: row.display_name,
    };
  }
}
