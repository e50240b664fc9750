import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function FriendlyLinksPage() {
  return <PlaceholderPage />;
}
