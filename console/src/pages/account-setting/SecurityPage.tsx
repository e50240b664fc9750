import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SecurityPage() {
  return <PlaceholderPage />;
}
