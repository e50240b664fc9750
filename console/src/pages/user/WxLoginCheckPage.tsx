import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function WxLoginCheckPage() {
  return <PlaceholderPage />;
}
