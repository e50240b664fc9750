import type { MenuPermission } from '@herald/shared/schemas/account.schema';

/**
 * Rules applied to the permission menus as they load (console-spec §4 "Login and logout"):
 * for users flagged `isHuaweiYunUser` = 1 the menu with id 2 (teammates) is removed, so the
 * sidebar hides it and the guard denies its routes, from one list.
 */
export const HUAWEI_HIDDEN_MENU_ID = 2;

export function applyMenuRules<Menu extends Pick<MenuPermission, 'id'>>(
  menus: readonly Menu[],
  isHuaweiYunUser: number | undefined,
): Menu[] {
  return menus.filter((menu) => !(isHuaweiYunUser === 1 && menu.id === HUAWEI_HIDDEN_MENU_ID));
}
