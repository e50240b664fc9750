import { http } from '../infra/http/http-client.ts';
import type { PermissionMenu } from '../stores/session.store.ts';

/** The user's menus: a flattened list whose ids are the permission codes they hold (§3, §7 "Members"). */
export async function fetchPermissionMenus(): Promise<PermissionMenu[]> {
  return (await http.get<{ data: PermissionMenu[] }>('/user/member/permissions')).data;
}
