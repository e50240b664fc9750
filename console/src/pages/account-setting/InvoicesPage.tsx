import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function InvoicesPage() {
  return <PlaceholderPage />;
}
