import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TimedTasksPage() {
  return <PlaceholderPage />;
}
