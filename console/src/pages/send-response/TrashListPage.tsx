import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TrashListPage() {
  return <PlaceholderPage />;
}
