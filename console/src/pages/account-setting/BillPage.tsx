import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function BillPage() {
  return <PlaceholderPage />;
}
