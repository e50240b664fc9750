import { PERMISSIONS } from '@herald/shared/permissions';
import {
  API_USER_EMAIL_TYPES,
  type ApiUserEmailType,
  apiUserCreateSchema,
  apiUserNameSchema,
  apiUserUpdateSchema,
} from '@herald/shared/schemas/api-user.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Flex,
  Form,
  Input,
  Radio,
  Result,
  Select,
  Spin,
  Switch,
  Typography,
} from 'antd';
import i18next from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  checkApiUserName,
  createApiUser,
  fetchApiUser,
  fetchBindableDomains,
  updateApiUser,
} from '../../api/api-users.api.ts';
import { fetchLabelOptions } from '../../api/labels.api.ts';
import { checkWithSchema, showFormError, zodRule } from '../../components/form-rules.ts';
import { useCan } from '../../components/use-can.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { HttpError } from '../../infra/http/http-errors.ts';
import { ApiKeyModal } from './api-users/ApiKeyModal.tsx';

interface Values {
  name: string;
  emailType: ApiUserEmailType;
  domainId?: number;
  labelId?: number | null;
  openTracking: boolean;
  clickTracking: boolean;
  unsubscribeTracking: boolean;
}

const LIST_PATH = '/sendSetting/apiuser';
const TYPE_KEYS = { trigger: 'apiUsers.typeTrigger', batch: 'apiUsers.typeBatch' } as const;
/** Errors that belong to one field of the form rather than to a toast. */
const FIELD_OF_CODE: Record<string, keyof Values> = {
  API_USER_NAME_TAKEN: 'name',
  API_USER_DOMAIN_NOT_FOUND: 'domainId',
  API_USER_DOMAIN_UNVERIFIED: 'domainId',
  API_USER_LABEL_NOT_FOUND: 'labelId',
  API_USER_FREE_UNSUBSCRIBE: 'unsubscribeTracking',
};

/** Create or edit an API_USER (`?id=` edits); after creation its key is shown once. */
export default function ApiUserOptionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const [form] = Form.useForm<Values>();
  const [issued, setIssued] = useState<{ name: string; apiKey: string } | null>(null);
  const queries = useQueryClient();
  const canChange = useCan(PERMISSIONS.EMAIL_SETTINGS, 'full');
  const domains = useQuery({ queryKey: ['apiUsers', 'domains'], queryFn: fetchBindableDomains });
  const labels = useQuery({ queryKey: ['labels', 'combobox'], queryFn: fetchLabelOptions });
  const apiUser = useQuery({
    queryKey: ['apiUsers', 'one', id],
    queryFn: () => fetchApiUser(id ?? 0),
    enabled: id !== null,
  });

  useEffect(() => {
    const u = apiUser.data;
    if (!u) return;
    form.setFieldsValue({
      name: u.name,
      emailType: u.emailType,
      domainId: u.domainId ?? undefined,
      labelId: u.labelId,
      openTracking: u.openTracking,
      clickTracking: u.clickTracking,
      unsubscribeTracking: u.unsubscribeTracking,
    });
  }, [apiUser.data, form]);

  const showError = (error: unknown) => {
    const field = error instanceof HttpError && error.code ? FIELD_OF_CODE[error.code] : undefined;
    if (field) form.setFields([{ name: field, errors: [(error as Error).message] }]);
    else showFormError(form, error);
  };

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      const input = {
        domainId: values.domainId,
        labelId: values.labelId ?? 0,
        openTracking: values.openTracking,
        clickTracking: values.clickTracking,
        unsubscribeTracking: values.unsubscribeTracking,
      };
      const body = id ? input : { ...input, name: values.name, emailType: values.emailType };
      if (!checkWithSchema(form, id ? apiUserUpdateSchema : apiUserCreateSchema, body)) return;
      if (id) {
        await updateApiUser(id, input);
        await queries.invalidateQueries({ queryKey: ['apiUsers'] });
        navigate(LIST_PATH);
      } else {
        const created = await createApiUser({ ...input, name: values.name, emailType: values.emailType });
        await queries.invalidateQueries({ queryKey: ['apiUsers'] });
        setIssued({ name: created.apiUser.name, apiKey: created.apiKey });
      }
    },
    (error) => {
      showError(error);
    },
  );

  const nameAvailable = {
    validator: async (_: unknown, value: string) => {
      if (id || !apiUserNameSchema.safeParse(value ?? '').success) return;
      if (!(await checkApiUserName(value.trim()).catch(() => true))) {
        throw new Error(i18next.t('apiUsers.nameTaken'));
      }
    },
    validateTrigger: 'onBlur',
  };

  if (domains.isError || apiUser.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  if (domains.isPending || (id !== null && apiUser.isPending)) {
    return <Spin style={{ display: 'block', margin: 48 }} />;
  }
  const domainOptions = (domains.data ?? []).map((d) => ({
    value: d.id,
    label: `${d.name} (${t(d.status === 'verified' ? 'apiUsers.domainStatusVerified' : 'apiUsers.domainStatusUsable')})`,
  }));

  return (
    <Card className="api-user-option-page">
      <Typography.Title level={4}>{id ? t('apiUsers.editTitle') : t('apiUsers.addTitle')}</Typography.Title>
      {domainOptions.length === 0 && (
        <Alert
          type="info"
          showIcon
          className="api-user-no-domain"
          style={{ marginBottom: 16 }}
          title={t('apiUsers.noDomain')}
          action={<Link to="/sendSetting/domain">{t('apiUsers.goDomains')}</Link>}
        />
      )}
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        disabled={!canChange}
        initialValues={{
          emailType: 'trigger',
          openTracking: true,
          clickTracking: true,
          unsubscribeTracking: true,
        }}
        style={{ maxWidth: 560 }}
      >
        <Form.Item
          name="name"
          label={t('apiUsers.name')}
          validateTrigger={['onChange', 'onBlur']}
          rules={id ? [] : [zodRule(apiUserNameSchema), nameAvailable]}
        >
          <Input
            name="name"
            disabled={id !== null}
            maxLength={64}
            placeholder={t('apiUsers.namePlaceholder')}
          />
        </Form.Item>
        <Form.Item name="emailType" label={t('apiUsers.emailType')}>
          <Radio.Group disabled={id !== null}>
            {API_USER_EMAIL_TYPES.map((type) => (
              <Radio key={type} value={type} className={`api-user-type-${type}`}>
                {t(TYPE_KEYS[type])}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item name="domainId" label={t('apiUsers.domain')}>
          <Select<number>
            className="api-user-domain"
            placeholder={t('apiUsers.domainPlaceholder')}
            options={domainOptions}
          />
        </Form.Item>
        <Form.Item name="labelId" label={t('apiUsers.label')}>
          <Select<number>
            className="api-user-label"
            allowClear
            placeholder={t('apiUsers.labelPlaceholder')}
            loading={labels.isPending}
            options={labels.data ?? []}
          />
        </Form.Item>
        <Form.Item name="openTracking" label={t('apiUsers.openTracking')} valuePropName="checked">
          <Switch className="api-user-open" />
        </Form.Item>
        <Form.Item name="clickTracking" label={t('apiUsers.clickTracking')} valuePropName="checked">
          <Switch className="api-user-click" />
        </Form.Item>
        <Form.Item
          name="unsubscribeTracking"
          label={t('apiUsers.unsubscribeTracking')}
          valuePropName="checked"
          extra={t('apiUsers.unsubscribeFreeHint')}
        >
          <Switch className="api-user-unsubscribe" />
        </Form.Item>
        <Flex gap="small">
          <Button type="primary" htmlType="submit" loading={saving} className="api-user-submit">
            {id ? t('apiUsers.submitSave') : t('apiUsers.submitCreate')}
          </Button>
          <Button disabled={false} onClick={() => navigate(LIST_PATH)}>
            {t('apiUsers.back')}
          </Button>
        </Flex>
      </Form>
      <ApiKeyModal
        issued={issued}
        onClose={() => {
          setIssued(null);
          navigate(LIST_PATH);
        }}
      />
    </Card>
  );
}
