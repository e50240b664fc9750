import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function VoiceSmsPage() {
  return <PlaceholderPage />;
}
