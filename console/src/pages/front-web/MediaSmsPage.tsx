import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function MediaSmsPage() {
  return <PlaceholderPage />;
}
