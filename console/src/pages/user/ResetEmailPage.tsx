import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ResetEmailPage() {
  return <PlaceholderPage />;
}
