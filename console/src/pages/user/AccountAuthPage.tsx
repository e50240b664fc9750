import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function AccountAuthPage() {
  return <PlaceholderPage />;
}
