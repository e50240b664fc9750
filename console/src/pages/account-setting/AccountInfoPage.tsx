import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function AccountInfoPage() {
  return <PlaceholderPage />;
}
