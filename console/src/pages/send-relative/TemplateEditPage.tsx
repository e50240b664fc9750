import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TemplateEditPage() {
  return <PlaceholderPage />;
}
