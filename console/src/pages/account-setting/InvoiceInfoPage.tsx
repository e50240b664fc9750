import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function InvoiceInfoPage() {
  return <PlaceholderPage />;
}
