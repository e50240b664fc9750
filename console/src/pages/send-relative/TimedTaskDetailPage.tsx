import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TimedTaskDetailPage() {
  return <PlaceholderPage />;
}
