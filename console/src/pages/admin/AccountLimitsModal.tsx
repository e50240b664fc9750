import { dailyQuotaSchema } from '@herald/shared/schemas/plan.schema';
import { useQueryClient } from '@tanstack/react-query';
import { Form, InputNumber, Modal, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type AdminAccountView, setAccountLimits } from '../../api/admin-accounts.api.ts';
import { applyFieldErrors, zodRule } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { ConfirmedSaveFooter } from './ConfirmedSaveFooter.tsx';

interface Values {
  plan: 'free' | 'paid';
  dailyQuota: number | null;
}

/** The account's plan and its own daily quota (empty: the plan's default). */
export function AccountLimitsModal({
  target,
  onClose,
}: {
  target: AdminAccountView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<Values>();
  const { submit, saving } = useFormSave(
    async () => {
      if (!target) return;
      const values = form.getFieldsValue();
      await setAccountLimits(target.accountId, {
        plan: values.plan,
        dailyQuota: values.dailyQuota ?? null,
      });
      await queries.invalidateQueries({ queryKey: ['admin-accounts'] });
      onClose();
    },
    (error) => {
      applyFieldErrors(form, error);
    },
  );

  const question = () => {
    const values = form.getFieldsValue();
    return t('adminAccounts.limitsConfirm', {
      account: target?.userName,
      plan: t(`adminAccounts.plan.${values.plan}`),
      quota:
        values.dailyQuota === null || values.dailyQuota === undefined
          ? t('adminAccounts.planDefault')
          : values.dailyQuota,
    });
  };

  return (
    <Modal
      open={target !== null}
      title={target ? t('adminAccounts.limitsTitle', { account: target.userName }) : ''}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <ConfirmedSaveFooter
          check={() => form.validateFields()}
          question={question}
          onConfirm={() => submit()}
          onCancel={onClose}
          saving={saving}
          okText={t('adminAccounts.save')}
          testId="admin-limits-save"
        />
      }
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={target ? { plan: target.plan, dailyQuota: target.dailyQuota } : undefined}
      >
        <Form.Item name="plan" label={t('adminAccounts.planLabel')}>
          <Radio.Group data-testid="admin-limits-plan">
            <Radio value="free">{t('adminAccounts.plan.free')}</Radio>
            <Radio value="paid">{t('adminAccounts.plan.paid')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="dailyQuota"
          label={t('adminAccounts.dailyQuotaLabel')}
          extra={t('adminAccounts.dailyQuotaHint')}
          rules={[zodRule(dailyQuotaSchema)]}
        >
          <InputNumber
            style={{ width: '100%' }}
            placeholder={t('adminAccounts.planDefault')}
            data-testid="admin-limits-quota"
          />
        </Form.Item>
        {target?.raise && (
          <Typography.Text type="secondary">
            {t('adminAccounts.raiseKept', { extra: target.raise.extra, until: target.raise.toDay })}
          </Typography.Text>
        )}
      </Form>
    </Modal>
  );
}
