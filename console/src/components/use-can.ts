import type { RouteAccess } from '@herald/shared/permissions';
import { canAccess } from '../routes/menu.ts';
import { useSessionStore } from '../stores/session.store.ts';

/**
 * Whether the logged-in user holds a permission code (console-spec §6 "permission directive").
 * `PUBLIC` and `AUTHENTICATED` always pass: the guard already required the login. With
 * `level: 'full'` a code held only at read (a visitor, a custom teammate's read-only function)
 * does not pass: change buttons ask for it, views do not.
 */
export type CanLevel = 'read' | 'full';

export function useCan(access: RouteAccess, level: CanLevel = 'read'): boolean {
  const permissions = useSessionStore((state) => state.permissions);
  const menus = useSessionStore((state) => state.menus);
  if (!canAccess(access, permissions)) return false;
  if (level === 'read' || typeof access !== 'number') return true;
  return menus.some((menu) => menu.code === access && menu.level !== 'read');
}
