import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function UnsubscribePreviewPage() {
  return <PlaceholderPage />;
}
