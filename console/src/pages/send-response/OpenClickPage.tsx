import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function OpenClickPage() {
  return <PlaceholderPage />;
}
