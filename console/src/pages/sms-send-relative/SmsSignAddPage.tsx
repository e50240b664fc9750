import { PERMISSIONS } from '@herald/shared/permissions';
import {
  SMS_SIGN_ATTACHMENTS_MAX,
  SMS_SIGN_ID_SIDES,
  SMS_SIGN_SOURCES,
  SMS_SIGN_TYPES,
  type SmsSignInput,
  type SmsSignType,
  smsSignInputSchema,
  smsSignNameSchema,
} from '@herald/shared/schemas/sms-sign.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Flex,
  Form,
  Input,
  Radio,
  Result,
  Select,
  Space,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { checkSmsSignName, createSmsSign, fetchSmsSign, updateSmsSign } from '../../api/sms-signs.api.ts';
import { Can } from '../../components/Can.tsx';
import { checkWithSchema, showFormError, zodRule } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { SmsSignStatusTag } from './SmsSignsPage.tsx';
import { SmsUploadField } from './SmsUploadField.tsx';

const LIST_PATH = '/s_sendRelative/sign';
const CHECK_DELAY_MS = 400;

type NameCheck =
  | { state: 'idle' | 'checking' }
  | { state: 'done'; available: boolean; message: string | null };

/**
 * The name's availability as the user types (`/sms/smsSigns/check`, debounced): the rule it
 * breaks or that the account has it already, in the server's words. The signature's own saved
 * name is not checked against itself.
 */
function useNameCheck(
  name: string | undefined,
  type: SmsSignType,
  own: { name: string; type: SmsSignType } | null,
) {
  const [check, setCheck] = useState<NameCheck>({ state: 'idle' });
  useEffect(() => {
    if (
      !name ||
      (own && own.name === name && own.type === type) ||
      !smsSignNameSchema.safeParse(name).success
    ) {
      setCheck({ state: 'idle' });
      return;
    }
    setCheck({ state: 'checking' });
    const abort = new AbortController();
    const timer = setTimeout(() => {
      checkSmsSignName(name, type, abort.signal).then(
        (result) => setCheck({ state: 'done', ...result }),
        () => setCheck({ state: 'idle' }),
      );
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [name, type, own]);
  return check;
}

/**
 * Adds a signature, or with `?id=` changes one (console-spec §2 /s_sendRelative/sign/add). The
 * shared schema checks the whole form as the server does: the name rules of product-spec §5
 * field by field while typing, and the third party's documents when that box is ticked. Files
 * are uploaded as they are chosen and shown as previews. Saving sends the signature to review.
 */
export default function SmsSignAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const [form] = Form.useForm<SmsSignInput>();
  const existing = useQuery({
    queryKey: ['smsSign', id],
    queryFn: () => fetchSmsSign(id as number),
    enabled: id !== null,
  });
  const sign = existing.data;
  const name = Form.useWatch('name', form);
  const signType = Form.useWatch('signType', form) ?? 'domestic';
  const thirdParty = Form.useWatch('thirdParty', form) ?? false;
  const [own, setOwn] = useState<{ name: string; type: SmsSignType } | null>(null);
  const nameCheck = useNameCheck(name, signType, own);

  useEffect(() => {
    if (!sign) return;
    setOwn({ name: sign.name, type: sign.signType });
    form.setFieldsValue({
      name: sign.name,
      signType: sign.signType,
      source: sign.source,
      thirdParty: sign.thirdParty,
      licenseFileId: sign.licenseFile?.id ?? null,
      legalPersonName: sign.legalPersonName ?? undefined,
      // The saved number is shown masked; it must be entered again to be changed or kept.
      legalPersonIdNumber: '',
      idSide: sign.idSide,
      idFileId: sign.idFile?.id ?? null,
      attachmentIds: sign.attachments.map((a) => a.id),
    });
  }, [sign, form]);

  const { submit, saving } = useFormSave(
    async (values: SmsSignInput) => {
      if (id === null) await createSmsSign(values);
      else await updateSmsSign(id, values);
      await queries.invalidateQueries({ queryKey: ['smsSigns'] });
      await queries.invalidateQueries({ queryKey: ['smsSign', id] });
      navigate(LIST_PATH);
    },
    (error) => showFormError(form, error),
  );

  if (id !== null && existing.isError) return <Result status="warning" title={t('smsSigns.loadFailed')} />;

  const nameExtra =
    nameCheck.state === 'checking' ? (
      <Typography.Text type="secondary" className="sms-sign-name-check">
        {t('smsSigns.checking')}
      </Typography.Text>
    ) : nameCheck.state === 'done' ? (
      <Typography.Text
        type={nameCheck.available ? 'success' : 'danger'}
        className="sms-sign-name-check"
        data-available={nameCheck.available}
      >
        {nameCheck.available ? t('smsSigns.nameAvailable') : nameCheck.message}
      </Typography.Text>
    ) : (
      t('smsSigns.nameHint')
    );

  return (
    <Card className="sms-sign-add-page">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {id === null ? t('smsSigns.addTitle') : t('smsSigns.editTitle')}
        </Typography.Title>
        {sign && <SmsSignStatusTag status={sign.status} />}
      </Flex>
      {sign?.status === 'rejected' && sign.rejectReason && (
        <Alert
          type="error"
          showIcon
          className="sms-sign-rejected"
          title={t('smsSigns.rejectReason', { reason: sign.rejectReason })}
          description={t('smsSigns.rejectedHint')}
          style={{ marginBottom: 16 }}
        />
      )}
      {sign?.status === 'passed' && (
        <Alert type="info" showIcon title={t('smsSigns.passedEditHint')} style={{ marginBottom: 16 }} />
      )}
      <Form<SmsSignInput>
        form={form}
        layout="vertical"
        style={{ maxWidth: 640 }}
        disabled={id !== null && existing.isPending}
        initialValues={{
          signType: 'domestic',
          source: 'enterprise',
          thirdParty: false,
          licenseFileId: null,
          legalPersonName: '',
          legalPersonIdNumber: '',
          idSide: 'front',
          idFileId: null,
          attachmentIds: [],
        }}
        onFinish={(values) => {
          if (checkWithSchema(form, smsSignInputSchema, values)) submit(values);
        }}
      >
        <Form.Item name="signType" label={t('smsSigns.type')}>
          <Radio.Group
            className="sms-sign-type"
            options={SMS_SIGN_TYPES.map((v) => ({ value: v, label: t(`smsSigns.types.${v}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('smsSigns.name')}
          required
          rules={[zodRule(smsSignNameSchema)]}
          extra={nameExtra}
        >
          <Input
            name="signName"
            autoComplete="off"
            placeholder={t('smsSigns.namePlaceholder')}
            maxLength={30}
          />
        </Form.Item>
        <Form.Item name="source" label={t('smsSigns.source')}>
          <Select
            className="sms-sign-source"
            options={SMS_SIGN_SOURCES.map((v) => ({ value: v, label: t(`smsSigns.sources.${v}`) }))}
          />
        </Form.Item>
        <Form.Item name="thirdParty" valuePropName="checked" extra={t('smsSigns.thirdPartyHint')}>
          <Checkbox className="sms-sign-third-party">{t('smsSigns.thirdParty')}</Checkbox>
        </Form.Item>
        {thirdParty && (
          <Card size="small" className="sms-sign-third-party-card" style={{ marginBottom: 24 }}>
            <Form.Item name="licenseFileId" label={t('smsSigns.license')} required>
              <SmsUploadField
                purpose="sms_sign"
                imagesOnly
                className="sms-sign-license"
                known={sign?.licenseFile ? [sign.licenseFile] : []}
              />
            </Form.Item>
            <Form.Item name="legalPersonName" label={t('smsSigns.legalPersonName')} required>
              <Input name="legalPersonName" autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="legalPersonIdNumber"
              label={t('smsSigns.legalPersonIdNumber')}
              required
              extra={
                sign?.legalPersonIdNumber
                  ? t('smsSigns.idNumberSaved', { masked: sign.legalPersonIdNumber })
                  : t('smsSigns.idNumberHint')
              }
            >
              <Input name="legalPersonIdNumber" autoComplete="off" />
            </Form.Item>
            <Form.Item name="idSide" label={t('smsSigns.idSide')}>
              <Radio.Group
                options={SMS_SIGN_ID_SIDES.map((v) => ({ value: v, label: t(`smsSigns.idSides.${v}`) }))}
              />
            </Form.Item>
            <Form.Item name="idFileId" label={t('smsSigns.idFile')}>
              <SmsUploadField
                purpose="sms_sign"
                imagesOnly
                className="sms-sign-id-file"
                known={sign?.idFile ? [sign.idFile] : []}
              />
            </Form.Item>
          </Card>
        )}
        <Form.Item name="attachmentIds" label={t('smsSigns.attachments')}>
          <SmsUploadField
            purpose="sms_sign"
            max={SMS_SIGN_ATTACHMENTS_MAX}
            className="sms-sign-attachments"
            known={sign?.attachments ?? []}
          />
        </Form.Item>
        <Typography.Paragraph type="secondary">{t('smsSigns.reviewNotice')}</Typography.Paragraph>
        <Space>
          <Can code={PERMISSIONS.SMS_SEND} level="full">
            <Button type="primary" htmlType="submit" loading={saving} className="sms-sign-submit">
              {t('smsSigns.submit')}
            </Button>
          </Can>
          <Button onClick={() => navigate(LIST_PATH)} disabled={false}>
            {t('smsSigns.cancel')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
