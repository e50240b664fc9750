import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ChineseSmsPage() {
  return <PlaceholderPage />;
}
