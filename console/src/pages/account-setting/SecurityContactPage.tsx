import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SecurityContactPage() {
  return <PlaceholderPage />;
}
