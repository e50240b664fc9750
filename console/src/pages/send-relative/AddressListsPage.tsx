import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function AddressListsPage() {
  return <PlaceholderPage />;
}
