import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function LoginPage() {
  return <PlaceholderPage />;
}
