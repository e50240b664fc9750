import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function DashboardPage() {
  return <PlaceholderPage />;
}
