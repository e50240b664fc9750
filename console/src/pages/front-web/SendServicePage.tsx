import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SendServicePage() {
  return <PlaceholderPage />;
}
