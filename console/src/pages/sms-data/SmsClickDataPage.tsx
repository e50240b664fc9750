import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsClickDataPage() {
  return <PlaceholderPage />;
}
