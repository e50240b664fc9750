import { Breadcrumb } from 'antd';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentRoute } from '../../routes/current-route.ts';
import { areaById, routeByPath } from '../../routes/routes.ts';

/** Area › list › screen, from the route table (an editor's list links back). */
export function AppBreadcrumbs() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const route = useCurrentRoute();
  if (!route) return null;
  const area = areaById(route.group);
  const link = (path: string) => (event: MouseEvent) => {
    event.preventDefault();
    void navigate(path);
  };
  const items = [
    ...(area && !area.flat ? [{ title: t(area.titleKey) }] : []),
    ...route.parents.flatMap((path) => {
      const parent = routeByPath(path);
      return parent ? [{ title: t(parent.titleKey), href: path, onClick: link(path) }] : [];
    }),
    { title: t(route.titleKey) },
  ];
  return <Breadcrumb items={items} data-testid="breadcrumbs" />;
}
