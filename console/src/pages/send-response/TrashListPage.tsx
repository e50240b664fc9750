import { Card, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SuppressionListTable } from './suppression/SuppressionListTable.tsx';

/**
 * Invalid lists (console-spec §2 /sendResponse/trashList): the account's bounces (from hard
 * bounces; deletable), spam reports (180 days) and its own block list (permanent; add, import,
 * delete). Mail to an address on any of them is recorded invalid, "in blacklist".
 */
export default function TrashListPage() {
  const { t } = useTranslation();
  return (
    <Card className="trash-list-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('suppression.trashTitle')}
      </Typography.Title>
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'bounce',
            label: t('suppression.tabBounce'),
            children: <SuppressionListTable path="bounce" />,
          },
          {
            key: 'complaint',
            label: t('suppression.tabSpam'),
            children: <SuppressionListTable path="complaint" />,
          },
          { key: 'block', label: t('suppression.tabBlock'), children: <SuppressionListTable path="block" /> },
        ]}
      />
    </Card>
  );
}
