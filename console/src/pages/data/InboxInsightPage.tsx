import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function InboxInsightPage() {
  return <PlaceholderPage />;
}
