import {
  ACCOUNT_CERTIFICATIONS,
  type AccountCertificationLevel,
} from '@herald/shared/schemas/sms-filing.schema';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Modal, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AdminAccountView } from '../../api/admin-accounts.api.ts';
import { setCertification } from '../../api/sms-signs.api.ts';
import { showFormError } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { ConfirmedSaveFooter } from './ConfirmedSaveFooter.tsx';

/**
 * The operator's certification mark on an account (issue 20, until certification is built): SMS
 * and voice need `enterprise`. Saved after a confirmation; it applies to sending at once.
 */
export function AccountCertificationModal({
  target,
  onClose,
}: {
  target: AdminAccountView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<{ certification: AccountCertificationLevel }>();
  const { submit, saving } = useFormSave(
    async () => {
      if (!target) return;
      await setCertification(target.accountId, form.getFieldValue('certification'));
      await queries.invalidateQueries({ queryKey: ['admin-accounts'] });
      onClose();
    },
    (error) => showFormError(form, error),
  );
  return (
    <Modal
      open={target !== null}
      title={target ? t('smsFiling.certification.title', { account: target.userName }) : ''}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <ConfirmedSaveFooter
          check={() => form.validateFields()}
          question={() =>
            t('smsFiling.certification.confirm', {
              account: target?.userName,
              level: t(
                `smsFiling.certification.levels.${form.getFieldValue('certification') as AccountCertificationLevel}`,
              ),
            })
          }
          onConfirm={() => submit()}
          onCancel={onClose}
          saving={saving}
          okText={t('adminAccounts.save')}
          testId="admin-certification-save"
        />
      }
    >
      <Typography.Paragraph type="secondary">{t('smsFiling.certification.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ certification: target?.certification ?? 'none' }}>
        <Form.Item name="certification" label={t('smsFiling.certification.label')}>
          <Radio.Group
            className="admin-certification-choice"
            options={ACCOUNT_CERTIFICATIONS.map((level) => ({
              value: level,
              label: t(`smsFiling.certification.levels.${level}`),
            }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
