import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SubscriptionInvitePage() {
  return <PlaceholderPage />;
}
