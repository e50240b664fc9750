import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TradePage() {
  return <PlaceholderPage />;
}
