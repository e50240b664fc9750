import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SignSolutionPage() {
  return <PlaceholderPage />;
}
