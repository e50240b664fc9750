import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsInterceptorPage() {
  return <PlaceholderPage />;
}
