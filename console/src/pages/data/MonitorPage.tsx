import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function MonitorPage() {
  return <PlaceholderPage />;
}
