import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function DomainConfigPage() {
  return <PlaceholderPage />;
}
