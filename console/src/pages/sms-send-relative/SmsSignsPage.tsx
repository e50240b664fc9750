import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsSignsPage() {
  return <PlaceholderPage />;
}
