import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SubscriptionConfigPage() {
  return <PlaceholderPage />;
}
