import { API_KEY_GRACE_MINUTES, type ApiKeyGraceMinutes } from '@herald/shared/schemas/api-user.schema';
import { Modal, Radio, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSave } from '../../../components/use-form-save.ts';

/** Asks how long the current key stays valid beside the new one (15, 30, 45 or 60 minutes). */
export function ResetKeyModal({
  name,
  onReset,
  onCancel,
}: {
  name: string | null;
  onReset: (minutes: ApiKeyGraceMinutes) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [minutes, setMinutes] = useState<ApiKeyGraceMinutes>(15);
  // onReset reports its own failures (the page's sensitive-action runner).
  const reset = useFormSave(onReset, () => {});

  return (
    <Modal
      open={name !== null}
      title={name ? t('apiUsers.resetTitle', { name }) : null}
      className="reset-key-modal"
      okText={t('apiUsers.resetOk')}
      cancelText={t('apiUsers.cancel')}
      okButtonProps={{ danger: true, loading: reset.saving, className: 'reset-key-ok' }}
      onOk={() => reset.submit(minutes)}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('apiUsers.resetExplain')}</Typography.Paragraph>
      <Radio.Group value={minutes} onChange={(e) => setMinutes(e.target.value as ApiKeyGraceMinutes)}>
        {API_KEY_GRACE_MINUTES.map((m) => (
          <Radio key={m} value={m} className={`reset-minutes-${m}`}>
            {t('apiUsers.minutes', { count: m })}
          </Radio>
        ))}
      </Radio.Group>
    </Modal>
  );
}
