import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsContactEditPage() {
  return <PlaceholderPage />;
}
