import {
  SUBSCRIPTION_DEFAULT_COLOUR,
  SUBSCRIPTION_DISPLAY_MODES,
  SUBSCRIPTION_FROM_NAME_MAX,
  SUBSCRIPTION_NAME_MAX,
  SUBSCRIPTION_SUBJECT_MAX,
  SUBSCRIPTION_URL_MAX,
  type SubscriptionInput,
  subscriptionFields,
  subscriptionInputSchema,
  subscriptionUpdateSchema,
} from '@herald/shared/schemas/subscription.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  ColorPicker,
  Flex,
  Form,
  Input,
  Radio,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import type { Color } from 'antd/es/color-picker';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { fetchAddressLists } from '../../../api/address-lists.api.ts';
import {
  createSubscription,
  type SubscriptionView,
  updateSubscription,
} from '../../../api/subscriptions.api.ts';
import { fetchTestSendApiUsers } from '../../../api/test-send.api.ts';
import { applyFieldErrors, checkWithSchema, zodRule } from '../../../components/form-rules.ts';
import { useFormSave } from '../../../components/use-form-save.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { HttpError } from '../../../infra/http/http-errors.ts';
import { SUCCESS_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

const SUBSCRIPTIONS_PATH = '/sendRelative/subscription';
const CONFIG_PATH = '/sendRelative/subscription/config';
/** The lists a subscription may fill, in one page (the list call's largest). */
const LISTS_QUERY = { pageNum: 1, pageSize: 100 } as const;
const fields = subscriptionFields;
/** The form's values: the list is unchosen (not 0) until picked. */
type Values = Omit<SubscriptionInput, 'listId'> & { listId?: number };
const EMPTY: Values = {
  name: '',
  logoUrl: '',
  subject: '',
  fromName: '',
  fromAddress: '',
  apiUser: '',
  apiKey: '',
  confirm: true,
  displayMode: 'embedded',
  themeColor: SUBSCRIPTION_DEFAULT_COLOUR,
};

/** Server refusals that belong to one field, shown on it (the client has toasted them already). */
const FIELD_OF_CODE: Record<string, keyof Values> = {
  SUBSCRIPTION_API_KEY_INVALID: 'apiKey',
  SUBSCRIPTION_API_KEY_REQUIRED: 'apiKey',
  SUBSCRIPTION_FROM_DOMAIN_UNUSABLE: 'fromAddress',
  ADDRESS_LIST_NOT_FOUND: 'listId',
};

/**
 * The subscription form of subscription/add and subscription/edit (product-spec §3 and §5): every
 * field checked by the shared schema; the API_USER is one of the account's batch API_USERs (the
 * confirmation mails go out as it) and its API_KEY proves the account may use it (on a change it
 * may stay empty while the API_USER does). A new subscription opens on its code.
 */
export function SubscriptionForm({ subscription }: { subscription: SubscriptionView | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [form] = Form.useForm<Values>();
  const editing = subscription !== null;
  const apiUsers = useQuery({ queryKey: ['testSend', 'apiUsers'], queryFn: fetchTestSendApiUsers });
  const lists = useQuery({
    queryKey: ['addressLists', LISTS_QUERY],
    queryFn: () => fetchAddressLists(LISTS_QUERY),
  });
  const apiUser = Form.useWatch('apiUser', form);
  const batch = (apiUsers.data ?? []).filter((u) => u.emailType === 'batch');
  const domain = batch.find((u) => u.name === apiUser)?.domain ?? null;

  useEffect(() => {
    if (subscription)
      form.setFieldsValue({
        name: subscription.name,
        logoUrl: subscription.logoUrl,
        subject: subscription.subject,
        fromName: subscription.fromName,
        fromAddress: subscription.fromAddress,
        apiUser: subscription.apiUser,
        apiKey: '',
        listId: subscription.listId,
        confirm: subscription.confirm,
        displayMode: subscription.displayMode,
        themeColor: subscription.themeColor,
      });
  }, [subscription, form]);

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      if (!checkWithSchema(form, editing ? subscriptionUpdateSchema : subscriptionInputSchema, values))
        return;
      const input = { ...values, listId: values.listId ?? 0 };
      const saved = subscription
        ? await updateSubscription(subscription.id, input)
        : await createSubscription(input);
      // A creation answers 201, which the client toasts; a change answers 200.
      if (subscription) httpEffects().toast('success', t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
      await queries.invalidateQueries({ queryKey: ['subscriptions'] });
      await queries.invalidateQueries({ queryKey: ['subscription', saved.id] });
      navigate(subscription ? SUBSCRIPTIONS_PATH : `${CONFIG_PATH}?id=${saved.id}`);
    },
    (error) => {
      const field = error instanceof HttpError && error.code ? FIELD_OF_CODE[error.code] : undefined;
      if (field) form.setFields([{ name: field, errors: [(error as Error).message] }]);
      else applyFieldErrors(form, error);
    },
  );

  const noApiUser = apiUsers.isSuccess && batch.length === 0;
  const noList = lists.isSuccess && lists.data.list.length === 0;

  return (
    <Card className="subscription-form-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t(editing ? 'subscriptions.editTitle' : 'subscriptions.addTitle')}
      </Typography.Title>
      {noApiUser && (
        <Alert
          type="warning"
          showIcon
          className="subscription-no-api-user"
          style={{ marginBottom: 16 }}
          title={t('subscriptions.noBatchApiUser')}
          action={<Link to="/sendSetting/apiuser">{t('subscriptions.createApiUser')}</Link>}
        />
      )}
      {noList && (
        <Alert
          type="warning"
          showIcon
          className="subscription-no-list"
          style={{ marginBottom: 16 }}
          title={t('subscriptions.noList')}
          action={<Link to="/sendRelative/address">{t('subscriptions.createList')}</Link>}
        />
      )}
      <Form<Values>
        form={form}
        layout="vertical"
        style={{ maxWidth: 720 }}
        initialValues={EMPTY}
        onFinish={submit}
      >
        <Form.Item required name="name" label={t('subscriptions.name')} rules={[zodRule(fields.name)]}>
          <Input name="subscriptionName" maxLength={SUBSCRIPTION_NAME_MAX} />
        </Form.Item>
        <Form.Item
          required
          name="logoUrl"
          label={t('subscriptions.logoUrl')}
          extra={t('subscriptions.logoUrlHint')}
          rules={[zodRule(fields.logoUrl)]}
        >
          <Input name="subscriptionLogoUrl" maxLength={SUBSCRIPTION_URL_MAX} placeholder="https://" />
        </Form.Item>
        <Form.Item
          required
          name="apiUser"
          label={t('subscriptions.apiUser')}
          rules={[zodRule(fields.apiUser)]}
        >
          <Select
            className="subscription-api-user"
            loading={apiUsers.isPending}
            placeholder={t('subscriptions.apiUserPlaceholder')}
            options={batch.map((u) => ({
              value: u.name,
              label: u.domain ? `${u.name} (${u.domain})` : u.name,
            }))}
          />
        </Form.Item>
        <Form.Item
          required={!editing}
          name="apiKey"
          label={t('subscriptions.apiKey')}
          extra={t(editing ? 'subscriptions.apiKeyKeepHint' : 'subscriptions.apiKeyHint')}
          rules={[zodRule(editing ? subscriptionUpdateSchema.shape.apiKey : fields.apiKey)]}
        >
          <Input.Password name="subscriptionApiKey" autoComplete="off" />
        </Form.Item>
        <Form.Item required name="listId" label={t('subscriptions.list')} rules={[zodRule(fields.listId)]}>
          <Select
            className="subscription-list-select"
            loading={lists.isPending}
            placeholder={t('subscriptions.listPlaceholder')}
            options={(lists.data?.list ?? []).map((l) => ({
              value: l.id,
              label: `${l.name} (${l.address})`,
            }))}
          />
        </Form.Item>
        <Form.Item
          required
          name="subject"
          label={t('subscriptions.subject')}
          rules={[zodRule(fields.subject)]}
        >
          <Input name="subscriptionSubject" maxLength={SUBSCRIPTION_SUBJECT_MAX} />
        </Form.Item>
        <Form.Item
          required
          name="fromName"
          label={t('subscriptions.fromName')}
          rules={[zodRule(fields.fromName)]}
        >
          <Input name="subscriptionFromName" maxLength={SUBSCRIPTION_FROM_NAME_MAX} />
        </Form.Item>
        <Form.Item
          required
          name="fromAddress"
          label={t('subscriptions.fromAddress')}
          extra={
            domain ? t('subscriptions.fromAddressHint', { domain }) : t('subscriptions.fromAddressAnyDomain')
          }
          rules={[zodRule(fields.fromAddress)]}
        >
          <Input name="subscriptionFromAddress" placeholder={domain ? `news@${domain}` : undefined} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('subscriptions.confirm')}
          extra={t('subscriptions.confirmHint')}
          valuePropName="checked"
          rules={[zodRule(fields.confirm)]}
        >
          <Switch className="subscription-confirm" />
        </Form.Item>
        <Form.Item
          name="displayMode"
          label={t('subscriptions.displayMode')}
          rules={[zodRule(fields.displayMode)]}
        >
          <Radio.Group
            className="subscription-display-mode"
            options={SUBSCRIPTION_DISPLAY_MODES.map((mode) => ({
              value: mode,
              label: t(`subscribe.mode.${mode}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="themeColor"
          label={t('subscriptions.themeColor')}
          rules={[zodRule(fields.themeColor)]}
          getValueFromEvent={(color: Color) => color.toHexString()}
        >
          <ColorPicker className="subscription-theme-color" disabledAlpha showText />
        </Form.Item>
        <Flex justify="flex-end">
          <Space>
            <Button onClick={() => navigate(SUBSCRIPTIONS_PATH)}>{t('subscriptions.back')}</Button>
            <Button type="primary" htmlType="submit" loading={saving} className="subscription-save">
              {t('subscriptions.save')}
            </Button>
          </Space>
        </Flex>
      </Form>
    </Card>
  );
}
