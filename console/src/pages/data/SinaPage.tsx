import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SinaPage() {
  return <PlaceholderPage />;
}
