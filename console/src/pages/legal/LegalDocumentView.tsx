import { resolveLang } from '@herald/shared/lang';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../user/AppLink.tsx';
import styles from './LegalDocumentView.module.css';
import type { LegalDocument } from './legal-texts.ts';

/** One legal document in the chosen language, with a link to the other one. */
export function LegalDocumentView({
  documents,
  other,
}: {
  documents: Record<'zh-cn' | 'en', LegalDocument>;
  other: { to: string; document: Record<'zh-cn' | 'en', LegalDocument> };
}) {
  const { i18n } = useTranslation();
  const lang = resolveLang(i18n.language);
  const doc = documents[lang];
  return (
    <main className={styles.page} data-testid="legal-document">
      <Typography.Title level={1}>{doc.title}</Typography.Title>
      <Typography.Text type="secondary">{doc.updated}</Typography.Text>
      <Typography.Paragraph className={styles.intro}>{doc.intro}</Typography.Paragraph>
      {doc.sections.map((section) => (
        <section key={section.title}>
          <Typography.Title level={3}>{section.title}</Typography.Title>
          {section.paragraphs.map((paragraph) => (
            <Typography.Paragraph key={paragraph}>{paragraph}</Typography.Paragraph>
          ))}
        </section>
      ))}
      <AppLink to={other.to}>{other.document[lang].title}</AppLink>
    </main>
  );
}
