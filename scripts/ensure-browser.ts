/**
 * The README's test command runs this first: the browser tests need Chromium and the CJK fonts
 * (Debian's `chromium` and `fonts-noto-cjk`), and the sample tests run curl and openssl. When
 * any is missing and this runs as root on a machine with apt-get, it installs them, as `.ci/run` does, saying so in one line; otherwise it
 * stops at once with one line saying what to install, rather than a wall of launch errors later.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const chromium = process.env.HERALD_E2E_CHROMIUM ?? '/usr/bin/chromium';
const fontDirs = ['/usr/share/fonts/opentype/noto', '/usr/share/fonts/truetype/noto'];
const hasCjkFonts = () =>
  fontDirs.some((dir) => fs.existsSync(dir) && fs.readdirSync(dir).some((name) => /CJK/i.test(name)));
/** The command-line tools the tests run samples with (the integration page's and the guides'). */
const TOOLS = ['curl', 'openssl'];
const hasTool = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const ready = () =>
  fs.existsSync(chromium) &&
  (process.env.HERALD_E2E_CHROMIUM !== undefined || hasCjkFonts()) &&
  TOOLS.every(hasTool);

const PACKAGES = ['chromium', 'fonts-noto-cjk', ...TOOLS];

if (process.env.HERALD_E2E_CHROMIUM !== undefined && !fs.existsSync(chromium)) {
  process.stderr.write(`test: HERALD_E2E_CHROMIUM names ${chromium}, which does not exist\n`);
  process.exit(1);
}
if (!ready()) {
  const root = process.getuid?.() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (!root || !apt) {
    process.stderr.write(
      `test: the tests need Chromium (${chromium}), CJK fonts, curl and openssl: install them with ` +
        '`sudo apt-get install -y chromium fonts-noto-cjk curl openssl` (HERALD_E2E_CHROMIUM may name another Chromium)\n',
    );
    process.exit(1);
  }
  process.stderr.write(`test: installing ${PACKAGES.join(' and ')} for the browser tests (apt-get)\n`);
  const log = path.join(os.tmpdir(), 'herald-apt.log');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args: string[]) => {
    const result = spawnSync('apt-get', args, { env, encoding: 'utf8' });
    fs.appendFileSync(log, `${result.stdout ?? ''}${result.stderr ?? ''}`);
    return result.status === 0;
  };
  const installed =
    run(['install', '-y', '-qq', ...PACKAGES]) ||
    (run(['update', '-qq']) && run(['install', '-y', '-qq', ...PACKAGES]));
  if (!installed || !ready()) {
    process.stderr.write(`test: installing ${PACKAGES.join(' ')} failed; apt-get's output is in ${log}\n`);
    process.exit(1);
  }
}
