import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function Anniversary11Page() {
  return <PlaceholderPage />;
}
