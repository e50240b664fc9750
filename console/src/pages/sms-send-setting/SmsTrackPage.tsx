import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsTrackPage() {
  return <PlaceholderPage />;
}
