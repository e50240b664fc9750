import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function DeliveryTimePage() {
  return <PlaceholderPage />;
}
