import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsTestSendPage() {
  return <PlaceholderPage />;
}
