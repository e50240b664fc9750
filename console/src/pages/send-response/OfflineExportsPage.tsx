import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function OfflineExportsPage() {
  return <PlaceholderPage />;
}
