import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function OverseaEmailPage() {
  return <PlaceholderPage />;
}
