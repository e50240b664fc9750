import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsLabelsPage() {
  return <PlaceholderPage />;
}
