import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ReceiptsPage() {
  return <PlaceholderPage />;
}
