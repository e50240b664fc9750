import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SendQueuePage() {
  return <PlaceholderPage />;
}
