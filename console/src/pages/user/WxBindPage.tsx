import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function WxBindPage() {
  return <PlaceholderPage />;
}
