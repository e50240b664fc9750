import { PERMISSIONS } from '@herald/shared/permissions';
import {
  type SmsFilingInput,
  type SmsFilingStatus,
  smsFilingInputSchema,
} from '@herald/shared/schemas/sms-filing.schema';
import { smsIdNumberSchema, smsPersonNameSchema } from '@herald/shared/schemas/sms-sign.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Input, Result, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchSmsFiling, type SmsFilingView, submitSmsFiling } from '../../api/sms-signs.api.ts';
import { Can } from '../../components/Can.tsx';
import { checkWithSchema, showFormError, zodRule } from '../../components/form-rules.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { SmsFilePreview, SmsUploadField } from './SmsUploadField.tsx';

const STATUS_COLOR: Record<SmsFilingStatus, string> = {
  reviewing: 'processing',
  passed: 'success',
  rejected: 'error',
  disabled: 'default',
};

/** The filing's state (product-spec §4) as a coloured tag. */
export function SmsFilingStatusTag({ status }: { status: SmsFilingStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} className="sms-filing-status" data-status={status}>
      {t(`smsFiling.status.${status}`)}
    </Tag>
  );
}

/**
 * The SMS filing (console-spec §2 /s_sendRelative/guarantee): domestic SMS, MMS and voice need it
 * approved. Before the first submission and after a rejection (its reason shown) the form asks
 * for the handler's name and ID number and the signed commitment book; under review, approved or
 * disabled, the page shows what was filed, the ID number masked.
 */
export default function SmsGuaranteePage() {
  const { t } = useTranslation();
  const filing = useQuery({ queryKey: ['smsFiling'], queryFn: fetchSmsFiling });

  if (filing.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  if (filing.isPending) return <Card loading className="sms-filing-page" />;
  const current = filing.data;
  const editable = current === null || current.status === 'rejected';

  return (
    <Card className="sms-filing-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('smsFiling.title')} {current && <SmsFilingStatusTag status={current.status} />}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('smsFiling.intro')}</Typography.Paragraph>
      {current && <FilingState filing={current} />}
      {editable && <FilingForm resubmit={current !== null} />}
    </Card>
  );
}

function FilingState({ filing }: { filing: SmsFilingView }) {
  const { t } = useTranslation();
  const alert = {
    reviewing: <Alert type="info" showIcon title={t('smsFiling.reviewingHint')} />,
    passed: <Alert type="success" showIcon title={t('smsFiling.passedHint')} />,
    disabled: <Alert type="warning" showIcon title={t('smsFiling.disabledHint')} />,
    rejected: (
      <Alert
        type="error"
        showIcon
        className="sms-filing-rejected"
        title={t('smsFiling.rejectReason', { reason: filing.rejectReason ?? '' })}
        description={t('smsFiling.rejectedHint')}
      />
    ),
  }[filing.status];
  return (
    <>
      <div style={{ marginBottom: 16 }}>{alert}</div>
      {filing.status !== 'rejected' && (
        <Descriptions
          column={1}
          bordered
          size="small"
          className="sms-filing-details"
          style={{ maxWidth: 640 }}
        >
          <Descriptions.Item label={t('smsFiling.handlerName')}>{filing.handlerName}</Descriptions.Item>
          <Descriptions.Item label={t('smsFiling.handlerIdNumber')}>
            {filing.handlerIdNumber}
          </Descriptions.Item>
          <Descriptions.Item label={t('smsFiling.commitment')}>
            {filing.commitmentFile ? <SmsFilePreview file={filing.commitmentFile} /> : '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('smsFiling.updatedAt')}>
            {formatDateTime(filing.updatedAt)}
          </Descriptions.Item>
        </Descriptions>
      )}
    </>
  );
}

function FilingForm({ resubmit }: { resubmit: boolean }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<SmsFilingInput>();
  const { submit, saving } = useFormSave(
    async (values: SmsFilingInput) => {
      await submitSmsFiling(values);
      await queries.invalidateQueries({ queryKey: ['smsFiling'] });
    },
    (error) => showFormError(form, error),
  );
  return (
    <Form<SmsFilingInput>
      form={form}
      layout="vertical"
      style={{ maxWidth: 640 }}
      className="sms-filing-form"
      initialValues={{ handlerName: '', handlerIdNumber: '', commitmentFileId: undefined }}
      onFinish={(values) => {
        if (checkWithSchema(form, smsFilingInputSchema, values)) submit(values);
      }}
    >
      <Form.Item
        name="handlerName"
        label={t('smsFiling.handlerName')}
        required
        rules={[zodRule(smsPersonNameSchema)]}
      >
        <Input name="handlerName" autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="handlerIdNumber"
        label={t('smsFiling.handlerIdNumber')}
        required
        rules={[zodRule(smsIdNumberSchema)]}
        extra={t('smsFiling.idNumberHint')}
      >
        <Input name="handlerIdNumber" autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="commitmentFileId"
        label={t('smsFiling.commitment')}
        required
        rules={[zodRule(smsFilingInputSchema.shape.commitmentFileId)]}
        extra={t('smsFiling.commitmentHint')}
      >
        <SmsUploadField purpose="sms_filing" className="sms-filing-commitment" />
      </Form.Item>
      <Can code={PERMISSIONS.SMS_SEND} level="full">
        <Button type="primary" htmlType="submit" loading={saving} className="sms-filing-submit">
          {resubmit ? t('smsFiling.resubmit') : t('smsFiling.submit')}
        </Button>
      </Can>
    </Form>
  );
}
