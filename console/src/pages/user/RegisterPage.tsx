import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function RegisterPage() {
  return <PlaceholderPage />;
}
