import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ProductSelectPage() {
  return <PlaceholderPage />;
}
