import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function MessageSettingsPage() {
  return <PlaceholderPage />;
}
