import type { PublicSubscriptionView } from '@herald/shared/schemas/subscription.schema';
import { subscribeInputSchema } from '@herald/shared/schemas/subscription.schema';
import { validationMessage } from '@herald/shared/validation';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Result, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { fetchPublicSubscription, postSubscribe } from '../../api/subscriptions.api.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { type ImageCodeAnswer, ImageCodeField } from '../user/ImageCodeField.tsx';

/**
 * The public subscription page (console-spec §2 /subscriptionInvite?id=…): what a customer's
 * snippet shows in an iframe, a pop-up, a bar or a new tab. Email, name and an image code; with
 * confirmation on, the visitor is told to open the mail just sent. A bar (`mode=bottomBar|topBar`)
 * lays the form out on one line. A deleted subscription says it is no longer available.
 */
export default function SubscriptionInvitePage() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const page = useQuery({
    queryKey: ['subscription-page', id],
    queryFn: () => fetchPublicSubscription(id),
    enabled: id !== '',
    retry: false,
  });
  if (page.isPending && id !== '') return <Spin className="subscribe-loading" />;
  return (
    <SubscribeCard id={id} view={page.data ?? null} mode={params.get('mode') ?? page.data?.displayMode} />
  );
}

function SubscribeCard({
  id,
  view,
  mode,
}: {
  id: string;
  view: PublicSubscriptionView | null;
  mode?: string | undefined;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<{ email: string; name: string }>();
  const [answer, setAnswer] = useState<ImageCodeAnswer | null>(null);
  const [codeKey, setCodeKey] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<'pending' | 'subscribed' | null>(null);
  const lang = i18n.language === 'en' ? 'en' : 'zh-cn';
  const save = useFormSave(
    async (values: { email: string; name: string }) => {
      setError(null);
      const input = { id, ...values, captchaId: answer?.captchaId ?? '', code: answer?.captchaCode ?? '' };
      const checked = subscribeInputSchema.safeParse(input);
      if (!checked.success)
        throw new Error(validationMessage(checked.error.issues[0]?.message ?? 'invalid', lang));
      setDone((await postSubscribe(input)).status);
    },
    (failure) => {
      setError(failure instanceof Error ? failure.message : String(failure));
      setCodeKey((k) => k + 1);
    },
  );

  if (!view) return <Result status="404" title={t('subscribe.notFound')} />;
  if (!view.available)
    return <Result className="subscribe-unavailable" status="warning" title={t('subscribe.unavailable')} />;
  const bar = mode === 'bottomBar' || mode === 'topBar';
  const colour = view.themeColor;
  if (done)
    return (
      <Result
        className="subscribe-done"
        status="success"
        title={done === 'pending' ? t('subscribe.checkMailbox') : t('subscribe.subscribed')}
        subTitle={done === 'pending' ? t('subscribe.checkMailboxHint') : undefined}
      />
    );
  return (
    <div
      className="subscribe-page"
      style={{
        borderTop: bar ? undefined : `4px solid ${colour}`,
        padding: bar ? 8 : 24,
        maxWidth: bar ? undefined : 460,
        margin: '0 auto',
      }}
    >
      {!bar && (
        <div style={{ textAlign: 'center', marginBottom: 16 }}>
          <img src={view.logoUrl} alt="" style={{ maxHeight: 48 }} />
          <h2 style={{ margin: '8px 0 0' }}>{view.name}</h2>
        </div>
      )}
      {error && (
        <Alert type="error" showIcon className="subscribe-error" title={error} style={{ marginBottom: 12 }} />
      )}
      <Form
        form={form}
        layout={bar ? 'inline' : 'vertical'}
        onFinish={save.submit}
        initialValues={{ email: '', name: '' }}
      >
        <Form.Item name="email" label={bar ? undefined : t('subscribe.email')} required>
          <Input placeholder={t('subscribe.email')} autoComplete="email" />
        </Form.Item>
        <Form.Item name="name" label={bar ? undefined : t('subscribe.name')}>
          <Input placeholder={t('subscribe.name')} autoComplete="name" />
        </Form.Item>
        <ImageCodeField key={codeKey} url="/access/subInvite/imageCode" onChange={setAnswer} />
        <Button
          type="primary"
          htmlType="submit"
          loading={save.saving}
          block={!bar}
          style={{ background: colour, borderColor: colour, marginTop: bar ? 0 : 12 }}
        >
          {t('subscribe.submit')}
        </Button>
      </Form>
    </div>
  );
}
