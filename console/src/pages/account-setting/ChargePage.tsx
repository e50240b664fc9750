import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ChargePage() {
  return <PlaceholderPage />;
}
