import type { RouteAccess } from '@herald/shared/permissions';
import { canAccess } from '../routes/menu.ts';
import { useSessionStore } from '../stores/session.store.ts';

/**
 * Whether the logged-in user holds a permission code (console-spec §6 "permission directive").
 * `PUBLIC` and `AUTHENTICATED` always pass: the guard already required the login.
 */
export function useCan(access: RouteAccess): boolean {
  const permissions = useSessionStore((state) => state.permissions);
  return canAccess(access, permissions);
}
