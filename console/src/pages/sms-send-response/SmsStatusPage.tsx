import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsStatusPage() {
  return <PlaceholderPage />;
}
