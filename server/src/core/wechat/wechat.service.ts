import { randomBytes } from 'node:crypto';
import type { ChallengeAnswers, WechatCheck, WechatStart } from '@herald/shared';
import { AppError, ERRORS, type ErrorCode, type ErrorParams, isAppError } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { WechatStatesTable } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { AuthService, ClientInfo, LoginOutcome } from '../auth/auth.service.ts';
import type { HumanCheck } from '../auth/human-check.ts';
import type { UserCaller } from '../context.ts';
import { loadUserSecurity } from '../security-settings/user-security.ts';
import { hashToken, type SessionsService } from '../sessions/sessions.service.ts';
import * as repo from './wechat.repo.ts';
import { WechatClient, type WechatIdentity, type WechatSettings } from './wechat-client.ts';

/** How long a QR code (its state) waits for a scan, and a scanned one for its /wxbind login. */
export const WECHAT_STATE_MS = 5 * 60_000;
/** Finished and expired states are kept a day (for support questions), then deleted. */
const STATE_KEEP_MS = 24 * 3600_000;
/** The callback's path under the public URL; it must be the app's registered redirect URI. */
export const WECHAT_CALLBACK_PATH = '/v3/access/wechat/callback';

type Handoff = { token: string } | { verifyToken: string; ways: string[]; expiresIn: number };
type StateRow = NonNullable<Awaited<ReturnType<typeof repo.findState>>>;
type ScannedIdentity = { openid: string; unionid: string | null; nickname: string | null };

/**
 * WeChat quick login and binding over WeChat's website-app OAuth2 (console-spec §2 /wxLoginCheck,
 * /wxbind). The console asks for an authorize URL with a random state (stored hashed, five minutes);
 * WeChat sends the browser back to the callback with a code, which names the user's openid. A
 * login state whose identity is bound logs that user in through AuthService (lockout, account
 * state, IP whitelist, login protection, login log: nothing skips what a password login meets);
 * an unbound one waits for /wxbind's password login, which binds it. The console polls checkStat,
 * which hands the session (sealed at rest until then) out exactly once. A bind state belongs to
 * the logged-in user who asked for it, so a code cannot bind a WeChat to someone else's account.
 */
export class WechatService {
  private readonly database: Database;
  private readonly auth: AuthService;
  private readonly humanCheck: HumanCheck;
  private readonly sessions: SessionsService;
  private readonly box: SecretBox;
  private readonly client: WechatClient | undefined;
  private readonly redirectUri: string;

  constructor(deps: {
    database: Database;
    auth: AuthService;
    humanCheck: HumanCheck;
    sessions: SessionsService;
    secretBox: SecretBox;
    settings: WechatSettings | undefined;
    publicUrl: string;
  }) {
    this.database = deps.database;
    this.auth = deps.auth;
    this.humanCheck = deps.humanCheck;
    this.sessions = deps.sessions;
    this.box = deps.secretBox;
    this.client = deps.settings ? new WechatClient(deps.settings) : undefined;
    this.redirectUri = `${deps.publicUrl}${WECHAT_CALLBACK_PATH}`;
  }

  get enabled(): boolean {
    return this.client !== undefined;
  }

  /** A new state and the URL of WeChat's QR page; `ctx` makes it a binding for that user. */
  async start(ctx?: UserCaller): Promise<WechatStart> {
    const client = this.requireClient();
    if (ctx && (await repo.findUserBinding(this.database, ctx.accountId, ctx.userId))) {
      throw new AppError('WECHAT_USER_HAS_BINDING');
    }
    const state = randomBytes(24).toString('base64url');
    const now = Date.now();
    await repo.deleteStatesBefore(this.database, now - STATE_KEEP_MS);
    await repo.insertState(this.database, {
      state_hash: hashToken(state),
      purpose: ctx ? 'bind' : 'login',
      account_id: ctx?.accountId ?? null,
      user_id: ctx?.userId ?? null,
      status: 'waiting',
      created_at: now,
      expires_at: now + WECHAT_STATE_MS,
    });
    return {
      state,
      authorizeUrl: client.authorizeUrl(this.redirectUri, state),
      expiresIn: WECHAT_STATE_MS / 1000,
    };
  }

  /**
   * WeChat's redirect back. Every outcome, failures included, is recorded on the state for
   * checkStat, and the answer is where to send the browser: /wxLoginCheck, /wxbind, or the
   * security screen for a binding (an unknown state goes to /wxLoginCheck with `error`).
   */
  async callback(query: { state?: string; code?: string }, client: ClientInfo): Promise<string> {
    const wechat = this.requireClient();
    const state = query.state ?? '';
    const row = state ? await repo.findState(this.database, hashToken(state), Date.now()) : undefined;
    const target = (path: string) => `${path}?${new URLSearchParams({ state })}`;
    if (row?.status !== 'waiting') {
      return `${target('/wxLoginCheck')}&error=WECHAT_STATE_EXPIRED`;
    }
    const done = row.purpose === 'bind' ? target('/accountSetting/security') : target('/wxLoginCheck');
    try {
      if (!query.code) throw new AppError('WECHAT_AUTH_DENIED');
      const identity = await wechat.exchangeCode(query.code);
      const scanned = { openid: identity.openid, unionid: identity.unionid };
      if (row.purpose === 'bind') {
        await this.bindIdentity(this.stateUser(row), await this.withNickname(wechat, identity));
        await this.move(row, 'bound', scanned);
        return done;
      }
      const bound = await repo.findBindingByIdentity(this.database, identity.openid, identity.unionid);
      if (!bound) {
        const nickname = (await this.withNickname(wechat, identity)).nickname;
        await this.move(row, 'needBind', { ...scanned, nickname, expires_at: Date.now() + WECHAT_STATE_MS });
        return target('/wxbind');
      }
      const ctx = { accountId: bound.account_id, userId: bound.user_id };
      await this.handOff(row, await this.auth.loginVouched(ctx, client), scanned);
      return done;
    } catch (error) {
      if (!isAppError(error)) throw error;
      await this.move(row, 'failed', { error_code: error.code, error_params: JSON.stringify(error.params) });
      return done;
    }
  }

  /** What became of a state; a recorded failure is thrown, a session is handed out once. */
  async check(state: string): Promise<WechatCheck> {
    this.requireClient();
    const row = await repo.findState(this.database, hashToken(state), Date.now());
    if (!row || row.status === 'done') return { status: 'expired' };
    if (row.status === 'failed') throw storedError(row);
    if (row.status === 'loggedIn' || row.status === 'verifyRequired') {
      if (
        !row.handoff ||
        !(await repo.moveState(this.database, row.id, row.status, { status: 'done', handoff: null }))
      ) {
        return { status: 'expired' };
      }
      const handoff = JSON.parse(this.box.open(row.handoff, sealContext(row))) as Handoff;
      return 'token' in handoff
        ? { status: 'loggedIn', token: handoff.token }
        : { status: 'verifyRequired', ...handoff };
    }
    return { status: row.status };
  }

  /**
   * /wxbind: a password login (with its image code) for a scanned identity no user has; once the
   * password is right the identity is bound to that user and the login goes on as /oauth/token's
   * (a second step, when login protection asks for one, follows the binding, as it would follow a
   * later scan: the binding never lets a login skip it).
   */
  async beforeLoginBind(
    input: { state: string; username: string; password: string } & ChallengeAnswers,
    client: ClientInfo,
  ): Promise<LoginOutcome> {
    this.requireClient();
    await this.humanCheck.require(input, { slider: false, captcha: 'wechatBeforeLoginBind' });
    const row = await repo.findState(this.database, hashToken(input.state), Date.now());
    if (row?.status !== 'needBind' || !row.openid) throw new AppError('WECHAT_STATE_EXPIRED');
    const outcome = await this.auth.login(input.username, input.password, client);
    try {
      if (!(await repo.moveState(this.database, row.id, 'needBind', { status: 'done' }))) {
        throw new AppError('WECHAT_STATE_EXPIRED');
      }
      await this.bindIdentity(outcome.ctx, {
        openid: row.openid,
        unionid: row.unionid,
        nickname: row.nickname,
      });
    } catch (error) {
      // The password was right but the binding failed: the login it made must not outlive it.
      if (!outcome.verifyRequired) await this.sessions.revoke(outcome.token);
      throw error;
    }
    return outcome;
  }

  async bindStatus(
    ctx: UserCaller,
  ): Promise<{ enabled: boolean; bound: boolean; nickname: string | null; boundAt: number | null }> {
    const binding = await repo.findUserBinding(this.database, ctx.accountId, ctx.userId);
    return {
      enabled: this.enabled,
      bound: binding !== undefined,
      nickname: binding?.nickname ?? null,
      boundAt: binding?.created_at ?? null,
    };
  }

  /** Refused while the Google authenticator is on (product-spec §8): turn that off first. */
  async unbind(ctx: UserCaller): Promise<void> {
    const user = await loadUserSecurity(this.database, ctx);
    if (!(await repo.findUserBinding(this.database, ctx.accountId, ctx.userId))) {
      throw new AppError('WECHAT_NOT_BOUND');
    }
    if (user.totpBound || (user.loginVerify !== 'off' && user.loginVerifyWay === 'google')) {
      throw new AppError('WECHAT_UNBIND_BLOCKED');
    }
    if (!(await repo.deleteUserBinding(this.database, ctx.accountId, ctx.userId))) {
      throw new AppError('WECHAT_NOT_BOUND');
    }
  }

  private async bindIdentity(ctx: UserCaller, identity: ScannedIdentity): Promise<void> {
    const holder = await repo.findBindingByIdentity(this.database, identity.openid, identity.unionid);
    if (holder) {
      if (holder.account_id === ctx.accountId && holder.user_id === ctx.userId) return;
      throw new AppError('WECHAT_ALREADY_BOUND');
    }
    if (await repo.findUserBinding(this.database, ctx.accountId, ctx.userId)) {
      throw new AppError('WECHAT_USER_HAS_BINDING');
    }
    try {
      await repo.insertBinding(this.database, ctx.accountId, ctx.userId, identity, Date.now());
    } catch {
      // A unique index refused it: another request bound this identity or this user meanwhile.
      throw new AppError('WECHAT_ALREADY_BOUND');
    }
  }

  private async handOff(row: StateRow, outcome: LoginOutcome, scanned: Partial<StateRow>): Promise<void> {
    const handoff: Handoff = outcome.verifyRequired
      ? { verifyToken: outcome.verifyToken, ways: outcome.ways, expiresIn: outcome.expiresIn }
      : { token: outcome.token };
    await this.move(row, outcome.verifyRequired ? 'verifyRequired' : 'loggedIn', {
      ...scanned,
      account_id: outcome.ctx.accountId,
      user_id: outcome.ctx.userId,
      handoff: this.box.seal(JSON.stringify(handoff), sealContext(row)),
    });
  }

  private async move(
    row: StateRow,
    status: WechatStatesTable['status'],
    patch: Parameters<typeof repo.moveState>[3],
  ): Promise<void> {
    await repo.moveState(this.database, row.id, 'waiting', { ...patch, status });
  }

  private async withNickname(client: WechatClient, identity: WechatIdentity): Promise<ScannedIdentity> {
    return { openid: identity.openid, unionid: identity.unionid, nickname: await client.nickname(identity) };
  }

  private stateUser(row: StateRow): UserCaller {
    if (row.account_id === null || row.user_id === null) throw new AppError('WECHAT_STATE_EXPIRED');
    return { accountId: row.account_id, userId: row.user_id };
  }

  private requireClient(): WechatClient {
    if (!this.client) throw new AppError('WECHAT_NOT_CONFIGURED');
    return this.client;
  }
}

const sealContext = (row: StateRow) => `wechat-state:${row.id}`;

function storedError(row: StateRow): AppError {
  const code =
    row.error_code && row.error_code in ERRORS ? (row.error_code as ErrorCode) : 'WECHAT_AUTH_DENIED';
  let params: ErrorParams = {};
  try {
    params = row.error_params ? (JSON.parse(row.error_params) as ErrorParams) : {};
  } catch {
    params = {};
  }
  return new AppError(code, params);
}
