import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * A second independent DKIM verifier: Debian's dkimpy (python3-dkim), run on the bytes a loopback
 * MX received, with the test's key records as its DNS. `available` is false where the package is
 * not installed, and the tests that need it say so when they skip.
 */
const PYTHON = '/usr/bin/python3';
const SCRIPT = `
import sys, json, dkim
records = json.loads(sys.argv[1])
def dnsfunc(name, timeout=5):
    key = (name.decode() if isinstance(name, bytes) else name).rstrip('.')
    value = records.get(key)
    return value.encode() if value is not None else None
message = sys.stdin.buffer.read()
print('pass' if dkim.verify(message, dnsfunc=dnsfunc) else 'fail')
`;

export const dkimpyAvailable =
  existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import dkim'], { stdio: 'ignore' }).status === 0;

/** 'pass' or 'fail' as dkimpy's dkim.verify says for the first signature. */
export function dkimpyVerify(message: Buffer, records: Record<string, string>): string {
  const run = spawnSync(PYTHON, ['-c', SCRIPT, JSON.stringify(records)], { input: message });
  if (run.status !== 0) throw new Error(`dkimpy failed: ${run.stderr.toString()}`);
  return run.stdout.toString().trim();
}
