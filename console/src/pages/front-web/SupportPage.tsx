import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SupportPage() {
  return <PlaceholderPage />;
}
