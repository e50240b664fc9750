import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsRepliesPage() {
  return <PlaceholderPage />;
}
