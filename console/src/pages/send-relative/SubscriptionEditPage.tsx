import { Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { SubscriptionForm } from './subscriptions/SubscriptionForm.tsx';
import { useSubscription } from './subscriptions/use-subscription.ts';

/** A subscription's settings (console-spec §2 /sendRelative/subscription/edit?id=). */
export default function SubscriptionEditPage() {
  const { t } = useTranslation();
  const { id, subscription } = useSubscription();
  if (id === null || subscription.isError)
    return <Result status="warning" title={t('subscriptions.loadFailed')} />;
  if (subscription.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  return <SubscriptionForm subscription={subscription.data} />;
}
