import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import { tempDir } from '../helpers/database.ts';

/**
 * The data directory holds the embedded database, its WAL and export files: only Herald's user
 * may read them. A directory left world-readable by an older installation is closed on start.
 */
describe('data directory permissions', () => {
  let herald: Herald | undefined;
  after(() => herald?.kill());

  it('keeps the data directory 0700 and every file in it 0600', async () => {
    const dataDir = path.join(tempDir(), 'data');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'left-over.csv'), 'a,b\n', { mode: 0o644 });
    fs.chmodSync(dataDir, 0o755);
    herald = await startHerald({ env: { HERALD_DATA_DIR: dataDir } });
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        found.push(full);
        if (entry.isDirectory()) walk(full);
      }
    };
    walk(dataDir);
    assert.ok(
      found.some((f) => f.endsWith('herald.db')),
      found.join(' '),
    );
    assert.ok(
      found.some((f) => f.endsWith('herald.db-wal')),
      found.join(' '),
    );
    assert.equal(fs.statSync(dataDir).mode & 0o777, 0o700);
    for (const file of found) {
      const mode = fs.statSync(file).mode & 0o777;
      assert.equal(mode & 0o077, 0, `${path.relative(dataDir, file)} is ${mode.toString(8)}`);
    }
  });
});
