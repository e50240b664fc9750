import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function WebhooksPage() {
  return <PlaceholderPage />;
}
