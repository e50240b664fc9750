import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TagsPage() {
  return <PlaceholderPage />;
}
