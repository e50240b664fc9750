import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function PrizeDrawPage() {
  return <PlaceholderPage />;
}
