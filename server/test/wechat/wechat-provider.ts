import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The WeChat user holding the phone when the next QR code is scanned. */
export interface WechatUser {
  openid: string;
  unionid?: string;
  nickname: string;
}

export interface WechatProvider {
  baseUrl: string;
  appId: string;
  appSecret: string;
  /** Who confirms the next scan; `null` declines it (the redirect then carries no code). */
  nextScan(user: WechatUser | null): void;
  /** Every code exchange's query, as received. */
  exchanges: URLSearchParams[];
  close(): Promise<void>;
}

/**
 * A loopback stand-in for WeChat's website-app OAuth2: the QR page (`/connect/qrconnect`, which a
 * test "scans" by following it: it redirects to redirect_uri with a one-time code), the code
 * exchange (`/sns/oauth2/access_token`, checking app id, secret and code, answering errors as
 * WeChat does: HTTP 200 with `{errcode, errmsg}`) and `/sns/userinfo`.
 */
export async function startWechatProvider(
  options: { appId?: string; appSecret?: string } = {},
): Promise<WechatProvider> {
  const appId = options.appId ?? 'wx_test_app';
  const appSecret = options.appSecret ?? 'wx-test-secret';
  const codes = new Map<string, WechatUser>();
  const tokens = new Map<string, WechatUser>();
  const exchanges: URLSearchParams[] = [];
  let scanning: WechatUser | null = null;

  const json = (res: http.ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://wechat.test');
    const q = url.searchParams;
    if (url.pathname === '/connect/qrconnect') {
      const redirect = q.get('redirect_uri');
      if (
        q.get('appid') !== appId ||
        !redirect ||
        q.get('scope') !== 'snsapi_login' ||
        q.get('response_type') !== 'code'
      ) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end('bad authorize request');
        return;
      }
      const target = new URL(redirect);
      if (scanning) {
        const code = randomBytes(12).toString('hex');
        codes.set(code, scanning);
        target.searchParams.set('code', code);
      }
      target.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: target.toString() });
      res.end();
      return;
    }
    if (url.pathname === '/sns/oauth2/access_token') {
      exchanges.push(q);
      if (q.get('appid') !== appId) return json(res, { errcode: 40013, errmsg: 'invalid appid' });
      if (q.get('secret') !== appSecret) return json(res, { errcode: 40125, errmsg: 'invalid appsecret' });
      if (q.get('grant_type') !== 'authorization_code') {
        return json(res, { errcode: 40002, errmsg: 'invalid grant_type' });
      }
      const user = codes.get(q.get('code') ?? '');
      if (!user) return json(res, { errcode: 40029, errmsg: 'invalid code' });
      codes.delete(q.get('code') ?? '');
      const accessToken = randomBytes(16).toString('hex');
      tokens.set(accessToken, user);
      return json(res, {
        access_token: accessToken,
        expires_in: 7200,
        refresh_token: randomBytes(16).toString('hex'),
        openid: user.openid,
        scope: 'snsapi_login',
        ...(user.unionid ? { unionid: user.unionid } : {}),
      });
    }
    if (url.pathname === '/sns/userinfo') {
      const user = tokens.get(q.get('access_token') ?? '');
      if (!user || user.openid !== q.get('openid')) {
        return json(res, { errcode: 40001, errmsg: 'invalid credential, access_token is invalid' });
      }
      return json(res, { openid: user.openid, nickname: user.nickname, unionid: user.unionid });
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    appId,
    appSecret,
    exchanges,
    nextScan(user) {
      scanning = user;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
