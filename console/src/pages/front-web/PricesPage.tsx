import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function PricesPage() {
  return <PlaceholderPage />;
}
