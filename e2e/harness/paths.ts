import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const E2E_ROOT = join(REPO_ROOT, 'e2e');
export const TEST_RESULTS_DIR = join(E2E_ROOT, 'test-results');
export const CONSOLE_SRC_DIR = join(REPO_ROOT, 'console', 'src');
export const CONSOLE_LOCALES_DIR = join(CONSOLE_SRC_DIR, 'locales');
export const CONSOLE_PAGES_DIR = join(CONSOLE_SRC_DIR, 'pages');
