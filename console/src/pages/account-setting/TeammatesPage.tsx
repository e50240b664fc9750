import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TeammatesPage() {
  return <PlaceholderPage />;
}
