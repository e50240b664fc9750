import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function FinancePage() {
  return <PlaceholderPage />;
}
