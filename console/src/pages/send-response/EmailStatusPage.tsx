import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function EmailStatusPage() {
  return <PlaceholderPage />;
}
