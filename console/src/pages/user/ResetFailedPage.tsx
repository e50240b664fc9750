import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ResetFailedPage() {
  return <PlaceholderPage />;
}
