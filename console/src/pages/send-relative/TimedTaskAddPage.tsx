import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TimedTaskAddPage() {
  return <PlaceholderPage />;
}
