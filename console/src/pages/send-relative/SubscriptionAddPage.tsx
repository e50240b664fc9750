import { SubscriptionForm } from './subscriptions/SubscriptionForm.tsx';

/** A new subscription (console-spec §2 /sendRelative/subscription/add). */
export default function SubscriptionAddPage() {
  return <SubscriptionForm subscription={null} />;
}
