import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ReceiveDomainPage() {
  return <PlaceholderPage />;
}
