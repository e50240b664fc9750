import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsUnsubscribePage() {
  return <PlaceholderPage />;
}
