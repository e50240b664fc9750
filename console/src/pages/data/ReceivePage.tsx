import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ReceivePage() {
  return <PlaceholderPage />;
}
