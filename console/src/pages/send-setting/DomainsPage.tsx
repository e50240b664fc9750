import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function DomainsPage() {
  return <PlaceholderPage />;
}
