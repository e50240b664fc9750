import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TemplatesPage() {
  return <PlaceholderPage />;
}
