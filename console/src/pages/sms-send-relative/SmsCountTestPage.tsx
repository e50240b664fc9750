import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsCountTestPage() {
  return <PlaceholderPage />;
}
