import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function AccountAuthTipPage() {
  return <PlaceholderPage />;
}
