import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import type { SessionCaller, UserCaller } from '../context.ts';
import { loadAccess, readOnlyCodes } from '../members/member-access.ts';
import { permissionsOf } from '../users/users.service.ts';
import * as repo from './sessions.repo.ts';

/** Sessions slide: each use extends them, up to this long since the last use. */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
/** last_seen_at is written at most this often, so reads do not turn into writes. */
const TOUCH_EVERY_MS = 60_000;

export interface SessionPrincipal extends UserCaller {
  permissions: ReadonlySet<number>;
  /** Codes held for viewing only (a read-level teammate, or every code of a visitor). */
  readOnly: ReadonlySet<number>;
  /** A visitor: view only, downloads refused everywhere. */
  viewOnly: boolean;
  isOwner: boolean;
  /** A user of the platform's own account: may review templates in /admin. */
  platformOperator: boolean;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Console sessions. The token goes to the browser once; the database keeps only its SHA-256,
 * so a leaked database cannot be replayed as logins. Logout revokes the row.
 */
export class SessionsService {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  async create(ctx: UserCaller, client: { ip?: string; userAgent?: string } = {}): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await repo.insertSession(
      this.database,
      {
        tokenHash: hashToken(token),
        accountId: ctx.accountId,
        userId: ctx.userId,
        ip: client.ip ?? null,
        userAgent: client.userAgent?.slice(0, 512) ?? null,
        expiresAt: now + SESSION_IDLE_MS,
      },
      now,
    );
    return token;
  }

  async authenticate(token: string): Promise<SessionPrincipal | null> {
    const now = Date.now();
    const row = await repo.findLiveSession(this.database, hashToken(token), now);
    if (row?.status !== 'active') return null;
    if (now - row.last_seen_at > TOUCH_EVERY_MS) {
      await repo.touchSession(this.database, row.id, now, now + SESSION_IDLE_MS);
    }
    const ctx = { accountId: row.account_id, userId: row.user_id };
    const access = await loadAccess(this.database, ctx, row);
    return {
      ...ctx,
      isOwner: row.is_owner === 1,
      platformOperator: row.account_kind === 'platform',
      permissions: new Set(permissionsOf(access)),
      readOnly: new Set(readOnlyCodes(access)),
      viewOnly: access.viewOnly,
    };
  }

  /** Ends every session of the user (after a password reset). */
  revokeAll(ctx: UserCaller): Promise<void> {
    return repo.revokeUserSessions(this.database, ctx.accountId, ctx.userId, Date.now());
  }

  /** Ends every session of the user except the one making the call (after a password change). */
  revokeOthers(session: SessionCaller): Promise<void> {
    return repo.revokeUserSessions(
      this.database,
      session.accountId,
      session.userId,
      Date.now(),
      session.sessionHash,
    );
  }

  revoke(token: string): Promise<void> {
    return repo.revokeSession(this.database, hashToken(token), Date.now());
  }
}
