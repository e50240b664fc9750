import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TimedTaskEditPage() {
  return <PlaceholderPage />;
}
