import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SuppressionListTable } from './suppression/SuppressionListTable.tsx';

/** Unsubscribes (console-spec §2 /sendResponse/unsubscribe): per account, API_USER or label; batch mail to them is stopped. */
export default function UnsubscribePage() {
  const { t } = useTranslation();
  return (
    <Card className="unsubscribe-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('suppression.unsubscribeTitle')}
      </Typography.Title>
      <SuppressionListTable path="unsubscribes" />
    </Card>
  );
}
