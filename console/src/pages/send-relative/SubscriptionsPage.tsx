import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SubscriptionsPage() {
  return <PlaceholderPage />;
}
