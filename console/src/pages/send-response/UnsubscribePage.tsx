import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function UnsubscribePage() {
  return <PlaceholderPage />;
}
