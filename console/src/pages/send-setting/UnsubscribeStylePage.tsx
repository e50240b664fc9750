import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function UnsubscribeStylePage() {
  return <PlaceholderPage />;
}
