import { postLogout } from '../../api/auth.api.ts';
import { COOKIE, readCookie, removeCookie } from '../../infra/storage/cookies.ts';
import { clearSessionStorage } from '../../infra/storage/local-store.ts';
import { useMessageStore } from '../../stores/message.store.ts';
import { sessionState } from '../../stores/session.store.ts';

/**
 * Logout (console-spec §4): revoke the token on the server while it is still sent, then forget
 * it locally: the token cookies, the account cookies, the protect-verify cookie, session storage
 * and the user in the store. Language, theme, sidebar and marketing cookies stay: they describe
 * the browser, not the user. Safe to call twice and after a 401 (the server call is quiet).
 */
const USER_COOKIES = [
  COOKIE.tokenType,
  COOKIE.loginId,
  COOKIE.accountType,
  COOKIE.protectVerify,
  COOKIE.userNameMarker,
] as const;

export async function logout(): Promise<void> {
  // The server clears the httpOnly token cookie; this side cannot even see it.
  if (readCookie(COOKIE.loginId) || readCookie(COOKIE.tokenType)) {
    try {
      await postLogout();
    } catch {
      // The server may be unreachable or the token already revoked; the local logout still happens.
    }
  }
  for (const name of USER_COOKIES) removeCookie(name);
  clearSessionStorage();
  sessionState().clearUser();
  useMessageStore.getState().setTotalCount(0);
}
