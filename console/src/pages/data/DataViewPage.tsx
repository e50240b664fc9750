import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function DataViewPage() {
  return <PlaceholderPage />;
}
