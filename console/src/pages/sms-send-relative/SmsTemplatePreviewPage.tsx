import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsTemplatePreviewPage() {
  return <PlaceholderPage />;
}
