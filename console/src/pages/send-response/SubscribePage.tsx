import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SubscribePage() {
  return <PlaceholderPage />;
}
