import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function FeedbackTrackPage() {
  return <PlaceholderPage />;
}
