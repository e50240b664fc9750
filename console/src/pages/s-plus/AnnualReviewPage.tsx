import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function AnnualReviewPage() {
  return <PlaceholderPage />;
}
