import { Button, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A modal footer whose save asks first: the form is checked, then a confirmation names what
 * will change, and only its OK saves. Operators' changes apply to a customer at once.
 */
export function ConfirmedSaveFooter({
  check,
  question,
  onConfirm,
  onCancel,
  saving,
  okText,
  testId,
}: {
  /** Resolves when the form's values pass its rules (rejects otherwise). */
  check: () => Promise<unknown>;
  question: () => string;
  onConfirm: () => void;
  onCancel: () => void;
  saving: boolean;
  okText: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  return (
    <Space>
      <Button onClick={onCancel}>{t('adminAccounts.cancel')}</Button>
      <Popconfirm
        open={asking}
        title={asking ? question() : ''}
        okText={t('adminAccounts.confirm')}
        cancelText={t('adminAccounts.cancel')}
        okButtonProps={{ className: `${testId}-confirm` }}
        onConfirm={() => {
          setAsking(false);
          onConfirm();
        }}
        onCancel={() => setAsking(false)}
      >
        <Button
          type="primary"
          loading={saving}
          data-testid={testId}
          onClick={async () => {
            try {
              await check();
              setAsking(true);
            } catch {
              // The form shows what is wrong.
            }
          }}
        >
          {okText}
        </Button>
      </Popconfirm>
    </Space>
  );
}
