import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function MonitorConfigPage() {
  return <PlaceholderPage />;
}
