import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function VisualTemplateEditPage() {
  return <PlaceholderPage />;
}
