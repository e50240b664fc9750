import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function MessageCenterPage() {
  return <PlaceholderPage />;
}
