import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsHooksPage() {
  return <PlaceholderPage />;
}
