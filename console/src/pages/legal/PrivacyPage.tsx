import { LegalDocumentView } from './LegalDocumentView.tsx';
import { PRIVACY, TERMS } from './legal-texts.ts';

/** The privacy policy the sign-up form links to. */
export default function PrivacyPage() {
  return <LegalDocumentView documents={PRIVACY} other={{ to: '/terms', document: TERMS }} />;
}
