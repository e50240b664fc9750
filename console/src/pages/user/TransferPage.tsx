import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TransferPage() {
  return <PlaceholderPage />;
}
