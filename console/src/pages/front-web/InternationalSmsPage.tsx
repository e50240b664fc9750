import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function InternationalSmsPage() {
  return <PlaceholderPage />;
}
