import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DotJournal } from '../../src/mta/pipeline/dot-journal.ts';
import { tempDir } from '../helpers/database.ts';

describe('dot journal', () => {
  it('answers for each marked attempt of a worker on this machine: written, retracted, or never recorded', () => {
    const dir = path.join(tempDir(), 'dots');
    const worker = new DotJournal(dir);
    worker.record('host:1:aa', 7, 1000);
    worker.record('host:1:aa', 8, 1000);
    worker.retract('host:1:aa', 8, 1000);
    worker.close();

    const rescuer = new DotJournal(dir);
    assert.equal(rescuer.verdict('host:1:aa', 7, 1000), 'written');
    assert.equal(rescuer.verdict('host:1:aa', 8, 1000), 'not written', 'the kernel refused that dot');
    assert.equal(
      rescuer.verdict('host:1:aa', 9, 1000),
      'not written',
      'killed between the mark and the entry',
    );
    assert.equal(rescuer.verdict('host:1:aa', 7, 999), 'not written', 'an earlier attempt of the same row');
    assert.equal(rescuer.verdict('elsewhere:2:bb', 7, 1000), 'unknown', 'a worker on another machine');
    assert.equal((fs.statSync(dir).mode & 0o777).toString(8), '700');
  });

  it('reads on from where it stopped as a live journal grows, and ignores a torn last line', () => {
    const dir = path.join(tempDir(), 'dots');
    const worker = new DotJournal(dir);
    const rescuer = new DotJournal(dir);
    worker.record('host:1:aa', 1, 5);
    assert.equal(rescuer.verdict('host:1:aa', 2, 5), 'not written');
    worker.record('host:1:aa', 2, 5);
    assert.equal(rescuer.verdict('host:1:aa', 2, 5), 'written');
    const [file] = fs.readdirSync(dir);
    fs.appendFileSync(path.join(dir, file as string), '3 5');
    assert.equal(rescuer.verdict('host:1:aa', 3, 5), 'not written');
    fs.appendFileSync(path.join(dir, file as string), '\n');
    assert.equal(rescuer.verdict('host:1:aa', 3, 5), 'written');
    worker.close();
  });
});
