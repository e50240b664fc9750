import { fetchPermissionMenus } from '../api/permissions.api.ts';
import { fetchHideExport } from '../api/system.api.ts';
import { fetchUserBalance, fetchUserInfo } from '../api/user-info.api.ts';
import { COOKIE, readCookie, writeCookie } from '../infra/storage/cookies.ts';
import { applyMenuRules } from './menu-rules.ts';
import { sessionState, type UserInfo } from './session.store.ts';

/**
 * Loads what the guard needs before it can decide (console-spec §4 step 3): the user and the
 * permission menus, in parallel, with the menu rules applied. Also starts the export flag
 * (hidden unless the server says otherwise) and stores the markers and the account type once
 * the member info is known (§3). One load at a time: two navigations share it.
 */
export const PROJECT_MARKER = 'SC';

let inFlight: Promise<void> | null = null;

export function loadSession(): Promise<void> {
  inFlight ??= (async () => {
    const store = sessionState();
    store.patch({ loading: true, loginId: readCookie(COOKIE.loginId) });
    void fetchHideExport()
      .then((hideExport) => sessionState().patch({ hideExport }))
      .catch(() => sessionState().patch({ hideExport: true }));
    const [userInfo, menus] = await Promise.all([fetchUserInfo(), fetchPermissionMenus()]);
    rememberUser(userInfo);
    sessionState().setPermissions(applyMenuRules(menus, userInfo.isHuaweiYunUser));
  })().finally(() => {
    inFlight = null;
    sessionState().patch({ loading: false });
  });
  return inFlight;
}

function rememberUser(userInfo: UserInfo): void {
  sessionState().patch({ userInfo, memberUserInfo: { userName: userInfo.userName } });
  writeCookie(COOKIE.accountType, userInfo.accountType);
  writeCookie(COOKIE.userNameMarker, userInfo.userName);
  writeCookie(COOKIE.projectMarker, PROJECT_MARKER);
}

/** The console data fetch of §4 step 2: the balance into the store; a failure changes nothing. */
export function loadConsoleData(): void {
  fetchUserBalance()
    .then((userBalance) => sessionState().patch({ userBalance }))
    .catch(() => {});
}
