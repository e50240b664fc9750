import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function CouponsPage() {
  return <PlaceholderPage />;
}
