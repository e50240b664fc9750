import {
  ACCOUNT_HOLDER_TYPES,
  type AccountHolderType,
  enterpriseInfoSchema,
  exmailSchema,
  personalInfoSchema,
} from '@herald/shared/schemas/profile.schema';
import { useMutation } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Flex,
  Form,
  type FormInstance,
  Input,
  Radio,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AccountDetails,
  saveAccountType,
  saveEnterprise,
  saveExmail,
  savePersonal,
} from '../../../api/profile.api.ts';
import { applyFieldErrors, checkWithSchema } from '../../../components/form-rules.ts';
import type { SensitiveRunOptions } from '../../../components/use-sensitive-action.tsx';

/**
 * The account's details on /accountSetting/info: who holds the account (a person or a company),
 * the company's information or the person's real name and ID number, and where notice and report
 * mails go. Each part saves on its own, checked by the shared schema the server runs. Setting the
 * ID number is a sensitive change (the dialog asks for a verification first). Teammates see the
 * details read-only: only the owner changes them.
 */
interface Props {
  details: AccountDetails;
  run: <T>(action: () => Promise<T>, options?: SensitiveRunOptions) => Promise<T | undefined>;
  onChanged: () => void;
}

export function AccountDetailsCard({ details, run, onChanged }: Props) {
  const { t } = useTranslation();
  const [type, setType] = useState<AccountHolderType>(details.accountType ?? 'personal');
  const [enterprise] = Form.useForm();
  const [personal] = Form.useForm();
  const [exmail] = Form.useForm();
  const disabled = !details.editable;

  useEffect(() => {
    setType(details.accountType ?? 'personal');
    enterprise.setFieldsValue({ website: '', ...details.enterprise });
    exmail.setFieldsValue({ email: details.exmail ?? '' });
  }, [details, enterprise, exmail]);

  const saving = useMutation({
    mutationFn: ({ action, form }: { part: string; action: () => Promise<unknown>; form?: FormInstance }) =>
      run(action, { onError: (error) => (form ? applyFieldErrors(form, error) : false) }),
  });
  const savingPart = saving.isPending ? saving.variables.part : null;
  const save = async (part: string, action: () => Promise<unknown>, form?: FormInstance) => {
    const done = await saving.mutateAsync({ part, action, form });
    if (done !== undefined) onChanged();
    return done !== undefined;
  };

  const saveType = (next: AccountHolderType) => {
    setType(next);
    void save('type', () => saveAccountType(next));
  };

  const submitEnterprise = (values: Record<string, string>) => {
    if (!checkWithSchema(enterprise, enterpriseInfoSchema, values)) return;
    void save('enterprise', () => saveEnterprise(enterpriseInfoSchema.parse(values)), enterprise);
  };

  const submitPersonal = async (values: Record<string, string>) => {
    if (!checkWithSchema(personal, personalInfoSchema, values)) return;
    if (await save('personal', () => savePersonal(personalInfoSchema.parse(values)), personal)) {
      personal.resetFields();
    }
  };

  const submitExmail = (values: { email: string }) => {
    if (!checkWithSchema(exmail, exmailSchema, values)) return;
    void save('exmail', () => saveExmail(values.email.trim()), exmail);
  };

  return (
    <Card title={t('security.detailsTitle')} className="account-details-card">
      <Flex vertical gap="large">
        {disabled && <Alert type="info" showIcon message={t('security.detailsOwnerOnly')} />}
        <Flex gap="middle" align="center">
          <Typography.Text strong>{t('security.holderType')}</Typography.Text>
          <Radio.Group
            value={type}
            disabled={disabled || savingPart === 'type'}
            onChange={(event) => saveType(event.target.value as AccountHolderType)}
            className="holder-type"
          >
            {ACCOUNT_HOLDER_TYPES.map((option) => (
              <Radio.Button key={option} value={option} className={`holder-type-${option}`}>
                {t(`security.holderType_${option}`)}
              </Radio.Button>
            ))}
          </Radio.Group>
        </Flex>

        {type === 'enterprise' ? (
          <Form
            form={enterprise}
            layout="vertical"
            onFinish={submitEnterprise}
            disabled={disabled}
            style={{ maxWidth: 480 }}
            className="enterprise-form"
          >
            <Form.Item name="companyName" label={t('security.companyName')}>
              <Input />
            </Form.Item>
            <Form.Item name="website" label={t('security.companyWebsite')}>
              <Input placeholder="https://" />
            </Form.Item>
            <Form.Item name="industry" label={t('security.industry')}>
              <Input />
            </Form.Item>
            <Form.Item name="contactName" label={t('security.contactName')}>
              <Input />
            </Form.Item>
            <Form.Item name="contactPhone" label={t('security.contactPhone')}>
              <Input />
            </Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              loading={savingPart === 'enterprise'}
              className="save-enterprise"
            >
              {t('security.save')}
            </Button>
          </Form>
        ) : (
          <Flex vertical gap="small">
            {details.personal && (
              <Descriptions column={1} size="small" className="personal-current">
                <Descriptions.Item label={t('security.realName')}>
                  {details.personal.realName}
                </Descriptions.Item>
                <Descriptions.Item label={t('security.idNumber')}>
                  {details.personal.idNumber}
                </Descriptions.Item>
              </Descriptions>
            )}
            <Form
              form={personal}
              layout="vertical"
              onFinish={(values) => void submitPersonal(values)}
              disabled={disabled}
              style={{ maxWidth: 480 }}
              className="personal-form"
            >
              <Form.Item name="realName" label={t('security.realName')} extra={t('security.realNameHint')}>
                <Input />
              </Form.Item>
              <Form.Item name="idNumber" label={t('security.idNumber')}>
                <Input autoComplete="off" />
              </Form.Item>
              <Button
                type="primary"
                htmlType="submit"
                loading={savingPart === 'personal'}
                className="save-personal"
              >
                {t('security.save')}
              </Button>
            </Form>
          </Flex>
        )}

        <Form
          form={exmail}
          layout="vertical"
          onFinish={submitExmail}
          disabled={disabled}
          style={{ maxWidth: 480 }}
          className="exmail-form"
        >
          <Form.Item
            name="email"
            label={t('security.exmail')}
            extra={t('security.exmailHint', { email: details.exmailEffective ?? '' })}
          >
            <Input type="email" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={savingPart === 'exmail'} className="save-exmail">
            {t('security.save')}
          </Button>
        </Form>
      </Flex>
    </Card>
  );
}
