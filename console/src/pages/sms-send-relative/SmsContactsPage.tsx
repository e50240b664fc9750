import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsContactsPage() {
  return <PlaceholderPage />;
}
