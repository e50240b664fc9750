import { AUTHENTICATED, PUBLIC, type RouteAccess } from '@herald/shared/permissions';
import type { MenuIcon, RouteTheme, TitleKey } from './route-types.ts';
import { backendAreas, screenRoutes } from './routes.ts';

/**
 * The sidebar of each product, derived from the route table and the user's permission codes:
 * an area becomes a submenu of its menu screens the user may open (or top-level entries for a
 * flat area, the dashboards), empty submenus disappear, and the API documentation link closes
 * the list. Pure, so the same function serves the sidebar and the tests.
 */
export interface MenuItemNode {
  kind: 'item';
  path: string;
  titleKey: TitleKey;
  icon?: MenuIcon;
}

export interface MenuGroupNode {
  kind: 'group';
  id: string;
  titleKey: TitleKey;
  icon?: MenuIcon;
  children: MenuItemNode[];
}

export interface MenuLinkNode {
  kind: 'link';
  href: string;
  titleKey: TitleKey;
}

export type MenuNode = MenuItemNode | MenuGroupNode | MenuLinkNode;

/** Where the API documentation lives unless the build names another place (app/shell-config.ts). */
export const DEFAULT_API_DOCS_URL = '/docs/api/';

export function canAccess(access: RouteAccess, codes: readonly number[] | null): boolean {
  if (access === PUBLIC || access === AUTHENTICATED) return true;
  if (typeof access !== 'number') return false;
  return codes?.includes(access) ?? false;
}

export function buildMenu(
  theme: RouteTheme,
  codes: readonly number[] | null,
  apiDocsUrl = DEFAULT_API_DOCS_URL,
): MenuNode[] {
  const nodes: MenuNode[] = [];
  for (const area of backendAreas) {
    const items = screenRoutes
      .filter((route) => route.group === area.id && (route.menu === theme || route.menu === 'both'))
      .filter((route) => canAccess(route.access, codes))
      .map((route): MenuItemNode => {
        const item: MenuItemNode = { kind: 'item', path: route.path, titleKey: route.titleKey };
        // Only top-level entries carry an icon; a submenu's entries are text under its icon.
        if (area.flat && route.icon) item.icon = route.icon;
        return item;
      });
    if (items.length === 0) continue;
    if (area.flat) {
      nodes.push(...items);
    } else {
      const group: MenuGroupNode = { kind: 'group', id: area.id, titleKey: area.titleKey, children: items };
      if (area.icon) group.icon = area.icon;
      nodes.push(group);
    }
  }
  nodes.push({ kind: 'link', href: apiDocsUrl, titleKey: 'shell.apiDocs' });
  return nodes;
}

/** The first screen of a product's menu the user may open: where the theme switch leads. */
export function firstMenuPath(theme: RouteTheme, codes: readonly number[] | null): string | undefined {
  for (const node of buildMenu(theme, codes)) {
    if (node.kind === 'item') return node.path;
    if (node.kind === 'group') return node.children[0]?.path;
  }
  return undefined;
}
