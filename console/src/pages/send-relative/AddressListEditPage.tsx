import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function AddressListEditPage() {
  return <PlaceholderPage />;
}
