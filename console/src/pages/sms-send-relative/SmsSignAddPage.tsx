import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsSignAddPage() {
  return <PlaceholderPage />;
}
