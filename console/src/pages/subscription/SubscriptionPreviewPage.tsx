import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SubscriptionPreviewPage() {
  return <PlaceholderPage />;
}
