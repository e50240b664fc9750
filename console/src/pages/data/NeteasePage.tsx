import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function NeteasePage() {
  return <PlaceholderPage />;
}
