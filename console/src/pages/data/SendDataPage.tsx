import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SendDataPage() {
  return <PlaceholderPage />;
}
