import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ResetSuccessPage() {
  return <PlaceholderPage />;
}
