import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function InvoiceApplyPage() {
  return <PlaceholderPage />;
}
