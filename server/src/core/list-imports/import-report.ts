import { once } from 'node:events';
import fs from 'node:fs';
import { type Lang, type ValidationKey, validationMessage } from '@herald/shared';
import { BOM, csvLine } from '../exports/csv.ts';

const HEADER: Record<Lang, string[]> = {
  'zh-cn': ['行号', '内容', '原因'],
  en: ['Line', 'Content', 'Reason'],
};

/**
 * The error report of an import: one CSV line (line number, what the line held, why it was not
 * taken) per line not imported, in the uploader's language. The file is opened with the first
 * such line, so an import without one has no report.
 */
export class ImportReport {
  private readonly path: string;
  private readonly lang: Lang;
  private out: fs.WriteStream | undefined;

  constructor(path: string, lang: Lang) {
    this.path = path;
    this.lang = lang;
  }

  get written(): boolean {
    return this.out !== undefined;
  }

  async add(line: number, content: string, reason: ValidationKey): Promise<void> {
    if (!this.out) {
      this.out = fs.createWriteStream(this.path);
      this.out.write(BOM + csvLine(HEADER[this.lang]));
    }
    if (!this.out.write(csvLine([line, content, validationMessage(reason, this.lang)]))) {
      await once(this.out, 'drain');
    }
  }

  async close(): Promise<void> {
    if (!this.out) return;
    const out = this.out;
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}
