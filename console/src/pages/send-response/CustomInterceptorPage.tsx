import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function CustomInterceptorPage() {
  return <PlaceholderPage />;
}
