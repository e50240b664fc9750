import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsTemplateEditPage() {
  return <PlaceholderPage />;
}
