import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsOfflineExportsPage() {
  return <PlaceholderPage />;
}
