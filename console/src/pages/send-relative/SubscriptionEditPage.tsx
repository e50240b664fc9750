import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SubscriptionEditPage() {
  return <PlaceholderPage />;
}
