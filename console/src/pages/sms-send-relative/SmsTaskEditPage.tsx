import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsTaskEditPage() {
  return <PlaceholderPage />;
}
