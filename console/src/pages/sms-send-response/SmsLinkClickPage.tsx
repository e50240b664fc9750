import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsLinkClickPage() {
  return <PlaceholderPage />;
}
