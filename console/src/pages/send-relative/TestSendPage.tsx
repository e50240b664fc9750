import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TestSendPage() {
  return <PlaceholderPage />;
}
