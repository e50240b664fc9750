import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function QueueStatusPage() {
  return <PlaceholderPage />;
}
