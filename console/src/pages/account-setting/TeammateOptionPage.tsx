import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TeammateOptionPage() {
  return <PlaceholderPage />;
}
