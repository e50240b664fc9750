import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ActivateSuccessPage() {
  return <PlaceholderPage />;
}
