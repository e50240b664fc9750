import { useNavigate } from 'react-router';
import { THEME_HOME } from '../../routes/routes.ts';
import { loadSession } from '../../stores/session-loader.ts';
import { readStoredTheme } from '../../stores/theme.ts';

/** Where a login goes: the in-app `redirect` it was given, else the dashboard of the stored theme. */
export function loginTarget(redirect: string | null | undefined): string {
  if (redirect?.startsWith('/') && !redirect.startsWith('//')) return redirect;
  return THEME_HOME[readStoredTheme()];
}

/**
 * Finishes a login once the server set the session cookies: loads the user and the permissions
 * into the session store (as the guard would) and opens the target.
 */
export function useFinishLogin() {
  const navigate = useNavigate();
  return async (redirect: string | null | undefined) => {
    await loadSession();
    await navigate(loginTarget(redirect), { replace: true });
  };
}
