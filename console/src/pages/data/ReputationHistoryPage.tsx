import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ReputationHistoryPage() {
  return <PlaceholderPage />;
}
