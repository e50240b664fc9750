/**
 * Runs test files with Node's test runner (`--concurrency=N`, then the files or globs), and runs a
 * file whose test failed once more, alone. A test that fails both times fails the run; one that
 * passes the second time is reported as flaky (on stdout, "run-tests: flaky …"), never hidden.
 * Only a few files get the second run: many failing files mean something broke, not a flake.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MAX_RERUN_FILES = 3;
const root = path.join(import.meta.dirname, '..');
const concurrencyFlag = process.argv.find((a) => a.startsWith('--concurrency='));
const concurrency = concurrencyFlag ? Number(concurrencyFlag.split('=')[1]) : 1;
const targets = process.argv.slice(2).filter((a) => !a.startsWith('--'));

/** Runs the files; returns its exit status and the failing tests by file. */
function runFiles(files: string[], parallel: number): { status: number; failed: Record<string, string[]> } {
  const report = path.join(mkdtempSync(path.join(tmpdir(), 'herald-tests-')), 'failed.json');
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      './scripts/test-flush-reports.ts',
      '--test',
      '--test-force-exit',
      `--test-concurrency=${parallel}`,
      '--test-timeout=300000',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/failed-files-reporter.ts',
      `--test-reporter-destination=${report}`,
      ...files,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  let failed: Record<string, string[]> = {};
  try {
    failed = JSON.parse(readFileSync(report, 'utf8')) as Record<string, string[]>;
  } catch {
    // No report: the runner itself failed; the status says so.
  }
  return { status: result.status ?? 1, failed };
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

const first = runFiles(targets, concurrency);
if (first.status === 0) process.exit(0);
const files = Object.keys(first.failed);
if (files.length === 0 || files.length > MAX_RERUN_FILES) process.exit(first.status);

const shown = files.map((f) => path.relative(root, f));
say(`\nrun-tests: ${shown.join(', ')} failed; running ${files.length > 1 ? 'them' : 'it'} again, alone`);
const second = runFiles(files, 1);
if (second.status !== 0) {
  say('run-tests: failed again');
  process.exit(second.status);
}
for (const file of files) {
  const names = [...new Set(first.failed[file])].join('; ');
  say(`run-tests: flaky (failed, then passed alone): ${path.relative(root, file)}: ${names}`);
}
