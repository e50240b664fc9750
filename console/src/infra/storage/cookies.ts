/**
 * The cookies the console reads and writes (console-spec §3). The session cookies are set by the
 * server on login: `token`, the credential, is httpOnly (no script reads it; the browser sends it
 * with every call), `tokenType` and `loginId` say that someone is logged in and which login it
 * is. The rest are the console's own. Plain `document.cookie`: a cookie library would be the only
 * user of its weight.
 */
export const COOKIE = {
  /** httpOnly: cleared by the server on logout, never readable here. */
  token: 'token',
  tokenType: 'tokenType',
  /** Which login the session cookies belong to: a random marker, not a credential. */
  loginId: 'loginId',
  accountType: 'accountType',
  language: 'language',
  sidebar: 'sidebarStatus',
  /** Set by the login-protection step; cleared on logout. */
  protectVerify: 'protectVerify',
  /** Markers stored after member info loads (§3). */
  userNameMarker: 'userName',
  projectMarker: 'project',
} as const;

export interface CookieOptions {
  /** Lifetime in days; a session cookie when omitted. */
  days?: number;
}

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    const raw = part.slice(index + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

export function writeCookie(name: string, value: string, options: CookieOptions = {}): void {
  let cookie = `${name}=${encodeURIComponent(value)}; path=/; SameSite=Lax`;
  if (options.days !== undefined) {
    cookie += `; expires=${new Date(Date.now() + options.days * 86_400_000).toUTCString()}`;
  }
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every supported browser
  document.cookie = cookie;
}

export function removeCookie(name: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: see writeCookie
  document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}
