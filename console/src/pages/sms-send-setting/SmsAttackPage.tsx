import { PERMISSIONS } from '@herald/shared/permissions';
import {
  type SmsFrequencyLimit,
  smsFrequencyLimitSchema,
} from '@herald/shared/schemas/sms-protection.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Form, InputNumber, Result, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSmsFrequencyLimit, saveSmsFrequencyLimit } from '../../api/sms-protection.api.ts';
import { Can } from '../../components/Can.tsx';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { SmsPausesCard } from './SmsPausesCard.tsx';

const fields = smsFrequencyLimitSchema.shape;

/**
 * Anti-bombing (console-spec §2 /s_sendSetting/attack): the account's limits of SMS to one number
 * per minute (496 beyond) and per day (498 beyond), the template guard (a verification-code or
 * voice template past its maximum in a window is paused), checked by the shared rule before
 * saving; below them the pause records, where a paused template is continued or cancelled.
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

  const guardOn = Form.useWatch('templateGuard', form);

  if (limits.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  return (
    <Flex vertical gap={16}>
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
          <Typography.Title level={5}>{t('smsPauses.guardTitle')}</Typography.Title>
          <Typography.Paragraph type="secondary">{t('smsPauses.guardIntro')}</Typography.Paragraph>
          <Form.Item name="templateGuard" label={t('smsPauses.guard')} valuePropName="checked">
            <Switch className="sms-attack-guard" />
          </Form.Item>
          <Form.Item
            name="templateWindow"
            label={t('smsPauses.window')}
            rules={[zodRule(fields.templateWindow)]}
            hidden={guardOn === false}
          >
            <InputNumber
              className="sms-attack-window"
              min={1}
              precision={0}
              addonAfter={t('smsPauses.minutes')}
            />
          </Form.Item>
          <Form.Item
            name="templateMax"
            label={t('smsPauses.max')}
            rules={[zodRule(fields.templateMax)]}
            hidden={guardOn === false}
          >
            <InputNumber className="sms-attack-max" min={1} precision={0} addonAfter={t('smsSend.unit')} />
          </Form.Item>
          <Can code={PERMISSIONS.SMS_SETTINGS} level="full">
            <Button type="primary" htmlType="submit" loading={saving} className="sms-attack-save">
              {t('smsSend.save')}
            </Button>
          </Can>
        </Form>
      </Card>
      <SmsPausesCard />
    </Flex>
  );
}
