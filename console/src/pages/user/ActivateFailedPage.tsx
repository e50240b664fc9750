import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ActivateFailedPage() {
  return <PlaceholderPage />;
}
