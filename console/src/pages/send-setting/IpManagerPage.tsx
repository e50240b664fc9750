import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function IpManagerPage() {
  return <PlaceholderPage />;
}
