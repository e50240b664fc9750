import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ResetPage() {
  return <PlaceholderPage />;
}
