import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsContentPage() {
  return <PlaceholderPage />;
}
