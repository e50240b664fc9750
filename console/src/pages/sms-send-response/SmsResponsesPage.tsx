import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsResponsesPage() {
  return <PlaceholderPage />;
}
