import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TrackPage() {
  return <PlaceholderPage />;
}
