import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsTemplatesPage() {
  return <PlaceholderPage />;
}
