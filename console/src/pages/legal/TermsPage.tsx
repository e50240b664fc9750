import { LegalDocumentView } from './LegalDocumentView.tsx';
import { PRIVACY, TERMS } from './legal-texts.ts';

/** The service agreement the sign-up form links to (product-spec §9 service terms). */
export default function TermsPage() {
  return <LegalDocumentView documents={TERMS} other={{ to: '/privacy', document: PRIVACY }} />;
}
