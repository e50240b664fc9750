import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function OverseaPage() {
  return <PlaceholderPage />;
}
