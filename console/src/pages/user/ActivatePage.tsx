import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ActivatePage() {
  return <PlaceholderPage />;
}
