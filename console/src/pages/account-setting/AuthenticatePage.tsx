import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function AuthenticatePage() {
  return <PlaceholderPage />;
}
