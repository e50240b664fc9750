import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function LoginProtectPage() {
  return <PlaceholderPage />;
}
