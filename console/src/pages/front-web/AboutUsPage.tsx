import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function AboutUsPage() {
  return <PlaceholderPage />;
}
