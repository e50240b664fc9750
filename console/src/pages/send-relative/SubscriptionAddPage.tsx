import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SubscriptionAddPage() {
  return <PlaceholderPage />;
}
