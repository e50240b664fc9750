import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function UnsubscribeSettingPage() {
  return <PlaceholderPage />;
}
