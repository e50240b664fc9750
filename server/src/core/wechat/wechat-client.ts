import { AppError } from '@herald/shared';

export interface WechatSettings {
  appId: string;
  appSecret: string;
  authorizeBase: string;
  apiBase: string;
}

/** What the code exchange names: the user's openid for this app, and unionid across the platform. */
export interface WechatIdentity {
  accessToken: string;
  openid: string;
  unionid: string | null;
}

/** How long a call to WeChat may take before it counts as unreachable. */
export const WECHAT_TIMEOUT_MS = 10_000;

/**
 * WeChat's website-app OAuth2 ("QR connect"): the authorize URL the console shows, the code
 * exchange and the user info. WeChat answers errors as HTTP 200 with `{errcode, errmsg}`; those,
 * a timeout or an unreadable answer are outcomes turned into WECHAT_PROVIDER_ERROR or
 * WECHAT_PROVIDER_UNREACHABLE, never a 500. The app secret goes only into the exchange's query
 * and is never part of an error or a log line.
 */
export class WechatClient {
  private readonly settings: WechatSettings;
  private readonly timeoutMs: number;

  constructor(settings: WechatSettings, options: { timeoutMs?: number } = {}) {
    this.settings = settings;
    this.timeoutMs = options.timeoutMs ?? WECHAT_TIMEOUT_MS;
  }

  authorizeUrl(redirectUri: string, state: string): string {
    const query = new URLSearchParams({
      appid: this.settings.appId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'snsapi_login',
      state,
    });
    return `${this.settings.authorizeBase}/connect/qrconnect?${query}#wechat_redirect`;
  }

  async exchangeCode(code: string): Promise<WechatIdentity> {
    const body = await this.get('/sns/oauth2/access_token', {
      appid: this.settings.appId,
      secret: this.settings.appSecret,
      code,
      grant_type: 'authorization_code',
    });
    const { access_token: accessToken, openid, unionid } = body;
    if (typeof accessToken !== 'string' || typeof openid !== 'string' || !openid) {
      throw new AppError('WECHAT_PROVIDER_ERROR', { errcode: '-', errmsg: 'no openid in the answer' });
    }
    return { accessToken, openid, unionid: typeof unionid === 'string' && unionid ? unionid : null };
  }

  /** The user's nickname, or null when WeChat will not say (it is only shown, never relied on). */
  async nickname(identity: WechatIdentity): Promise<string | null> {
    try {
      const body = await this.get('/sns/userinfo', {
        access_token: identity.accessToken,
        openid: identity.openid,
      });
      return typeof body.nickname === 'string' ? body.nickname.slice(0, 64) : null;
    } catch {
      return null;
    }
  }

  private async get(path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.settings.apiBase}${path}?${new URLSearchParams(query)}`, {
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch {
      throw new AppError('WECHAT_PROVIDER_UNREACHABLE');
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    if (!body || typeof body !== 'object') {
      throw new AppError('WECHAT_PROVIDER_ERROR', {
        errcode: String(response.status),
        errmsg: 'unreadable answer',
      });
    }
    const record = body as Record<string, unknown>;
    if (record.errcode !== undefined && record.errcode !== 0) {
      throw new AppError('WECHAT_PROVIDER_ERROR', {
        errcode: String(record.errcode),
        errmsg: String(record.errmsg ?? '').slice(0, 200),
      });
    }
    if (!response.ok) {
      throw new AppError('WECHAT_PROVIDER_ERROR', { errcode: String(response.status), errmsg: 'HTTP error' });
    }
    return record;
  }
}
