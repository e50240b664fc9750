import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function Anniversary12Page() {
  return <PlaceholderPage />;
}
