import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsTasksPage() {
  return <PlaceholderPage />;
}
