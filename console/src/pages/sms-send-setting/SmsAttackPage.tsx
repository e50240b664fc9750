import { PERMISSIONS } from '@herald/shared/permissions';
import {
  type SmsFrequencyLimit,
  smsFrequencyLimitSchema,
} from '@herald/shared/schemas/sms-protection.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, InputNumber, Result, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSmsFrequencyLimit, saveSmsFrequencyLimit } from '../../api/sms-protection.api.ts';
import { Can } from '../../components/Can.tsx';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

const fields = smsFrequencyLimitSchema.shape;

/**
 * Anti-bombing (console-spec §2 /s_sendSetting/attack): the account's limits of SMS to one number
 * per minute (496 beyond) and per day (498 beyond), checked by the shared rule before saving.
 */
export default function SmsAttackPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<SmsFrequencyLimit>();
  const queries = useQueryClient();
  const limits = useQuery({ queryKey: ['smsFrequencyLimit'], queryFn: fetchSmsFrequencyLimit });
  useEffect(() => {
    if (limits.data) form.setFieldsValue(limits.data);
  }, [limits.data, form]);
  const { submit, saving } = useFormSave(
    async (values: SmsFrequencyLimit) => {
      const saved = await saveSmsFrequencyLimit(values);
      queries.setQueryData(['smsFrequencyLimit'], saved);
      httpEffects().toast('success', t('smsSend.saved'), SUCCESS_TOAST_SECONDS);
    },
    (error) => showFormError(form, error),
  );

  if (limits.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  return (
    <Card className="sms-attack-page" loading={limits.isPending}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('smsSend.attackTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('smsSend.attackIntro')}</Typography.Paragraph>
      <Form<SmsFrequencyLimit> form={form} layout="vertical" style={{ maxWidth: 420 }} onFinish={submit}>
        <Form.Item name="perMinute" label={t('smsSend.perMinute')} rules={[zodRule(fields.perMinute)]}>
          <InputNumber className="sms-attack-minute" min={1} precision={0} addonAfter={t('smsSend.unit')} />
        </Form.Item>
        <Form.Item name="perDay" label={t('smsSend.perDay')} rules={[zodRule(fields.perDay)]}>
          <InputNumber className="sms-attack-day" min={1} precision={0} addonAfter={t('smsSend.unit')} />
        </Form.Item>
        <Can code={PERMISSIONS.SMS_SETTINGS} level="full">
          <Button type="primary" htmlType="submit" loading={saving} className="sms-attack-save">
            {t('smsSend.save')}
          </Button>
        </Can>
      </Form>
    </Card>
  );
}
