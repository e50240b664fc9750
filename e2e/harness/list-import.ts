import type { Locator, Page } from 'playwright-core';

/**
 * Imports a CSV into the list whose members screen `page` shows, through the shared import
 * dialog (console/src/components/list-import): the file chosen and started, the progress bar
 * seen, then the import's end, with the bar in its success state. Answers the open dialog, for
 * its counts and its error report.
 */
export async function importCsv(page: Page, fileName: string, csv: string): Promise<Locator> {
  await page.locator('.list-import-open').click();
  const dialog = page.locator('.list-import-modal');
  await dialog.locator('input[type="file"]').setInputFiles({
    name: fileName,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await dialog.locator('.list-import-start').click();
  const progress = dialog.locator('.list-import-progress');
  await progress.locator('.ant-progress').waitFor();
  await dialog.locator('.list-import-done', { hasText: '导入完成' }).waitFor({ timeout: 60_000 });
  await progress.locator('.ant-progress-status-success').waitFor();
  return dialog;
}
