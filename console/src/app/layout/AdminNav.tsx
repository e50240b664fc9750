import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { adminScreens } from '../../routes/admin-routes.ts';
import { useCurrentRoute } from '../../routes/current-route.ts';

/**
 * The operators' screens side by side above each /admin screen: the customer sidebar has no
 * place for them, so this is how an operator moves between template review, accounts and the rest.
 */
export function AdminNav() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const route = useCurrentRoute();
  if (route?.group !== 'admin') return null;
  return (
    <Segmented
      className="admin-nav"
      style={{ marginBottom: 16 }}
      value={route.path}
      onChange={(path) => void navigate(path)}
      options={adminScreens.map((screen) => ({ value: screen.path, label: t(screen.titleKey) }))}
    />
  );
}
