import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ServicePlusPage() {
  return <PlaceholderPage />;
}
