import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsTaskPreviewPage() {
  return <PlaceholderPage />;
}
