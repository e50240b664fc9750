import type { MenuPermission } from '@herald/shared/schemas/account.schema';
import { http } from '../infra/http/http-client.ts';

/** The user's menus: a flattened list whose ids are the permission codes they hold (§3, §7 "Members"). */
export async function fetchPermissionMenus(): Promise<MenuPermission[]> {
  return (await http.get<{ data: MenuPermission[] }>('/user/member/permissions')).data;
}
