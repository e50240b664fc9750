import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ResetPasswordPage() {
  return <PlaceholderPage />;
}
