import { QUOTA_RAISES_PER_MONTH } from '@herald/shared/limits';
import { quotaRaiseSchema } from '@herald/shared/schemas/plan.schema';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Form, InputNumber, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { type AdminAccountView, grantQuotaRaise } from '../../api/admin-accounts.api.ts';
import { applyFieldErrors, zodRule } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { ConfirmedSaveFooter } from './ConfirmedSaveFooter.tsx';

/**
 * A temporary increase: the extra emails a day, for today and tomorrow (Beijing time). The server
 * refuses a third in a month, a second while one runs, and one for an account without a limit;
 * its message is shown as it comes.
 */
export function QuotaRaiseModal({
  target,
  onClose,
}: {
  target: AdminAccountView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<{ extra: number | null }>();

  const { submit, saving } = useFormSave(
    async () => {
      if (!target) return;
      await grantQuotaRaise(target.accountId, Number(form.getFieldValue('extra')));
      onClose();
    },
    (error) => {
      applyFieldErrors(form, error);
    },
  );
  const done = () => {
    void queries.invalidateQueries({ queryKey: ['admin-accounts'] });
  };

  return (
    <Modal
      open={target !== null}
      title={target ? t('adminAccounts.raiseTitle', { account: target.userName }) : ''}
      onCancel={onClose}
      afterClose={done}
      destroyOnHidden
      footer={
        <ConfirmedSaveFooter
          check={() => form.validateFields()}
          question={() =>
            t('adminAccounts.raiseConfirm', {
              account: target?.userName,
              extra: form.getFieldValue('extra'),
            })
          }
          onConfirm={() => submit()}
          onCancel={onClose}
          saving={saving}
          okText={t('adminAccounts.grant')}
          testId="admin-raise-save"
        />
      }
    >
      {target && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('adminAccounts.raiseRules', {
            max: QUOTA_RAISES_PER_MONTH,
            used: target.raisesThisMonth,
          })}
        />
      )}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="extra"
          label={t('adminAccounts.raiseExtra')}
          rules={[zodRule(quotaRaiseSchema.shape.extra)]}
        >
          <InputNumber style={{ width: '100%' }} data-testid="admin-raise-extra" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
