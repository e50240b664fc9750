import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ApiUserOptionPage() {
  return <PlaceholderPage />;
}
