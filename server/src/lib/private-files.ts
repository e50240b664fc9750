import fs from 'node:fs';
import path from 'node:path';

/**
 * Keeps Herald's data to its own user: new files 0600 and directories 0700 from now on (the umask),
 * and the data directory with what it already holds (the embedded database, its WAL, exports)
 * brought to the same modes, for an installation made before this rule.
 */
export function keepDataPrivate(dataDir: string): void {
  process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const walk = (dir: string) => {
    fs.chmodSync(dir, 0o700);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) fs.chmodSync(full, 0o600);
    }
  };
  walk(dataDir);
}
