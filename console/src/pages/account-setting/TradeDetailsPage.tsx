import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TradeDetailsPage() {
  return <PlaceholderPage />;
}
