import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SendersPage() {
  return <PlaceholderPage />;
}
