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
    assert.equal(rescuer.verdict('host:1:aa', 7, 1000), 'written', 'the worker wrote on after it');
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

  it('is opened before the first mark commits: a worker killed before its first entry left "not written"', () => {
    const dir = path.join(tempDir(), 'dots');
    const worker = new DotJournal(dir);
    worker.open('host:1:aa');
    worker.open('host:1:aa');
    const rescuer = new DotJournal(dir);
    assert.equal(rescuer.verdict('host:1:aa', 1, 5), 'not written');
    assert.equal(fs.readdirSync(dir).length, 1, 'one file, opened once');
    worker.close();
  });

  it('names the last entry a worker wrote, across its segments: the one dot that may not have gone out', () => {
    const dir = path.join(tempDir(), 'dots');
    for (const [segment, lines] of [
      [1, '1 5\n2 5\n'],
      [2, '3 5\n4 5\n'],
      [10, ''],
    ] as const) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `host_1_aa.${segment}.dots`), lines);
    }
    const rescuer = new DotJournal(dir);
    assert.equal(rescuer.verdict('host:1:aa', 4, 5), 'last entry', 'segment 10 holds nothing yet');
    assert.equal(rescuer.verdict('host:1:aa', 2, 5), 'written');
    assert.equal(rescuer.verdict('host:1:aa', 3, 5), 'written');
  });

  it('reads on from where it stopped as a live journal grows, and ignores a torn last line', () => {
    const dir = path.join(tempDir(), 'dots');
    const worker = new DotJournal(dir);
    const rescuer = new DotJournal(dir);
    worker.record('host:1:aa', 1, 5);
    assert.equal(rescuer.verdict('host:1:aa', 2, 5), 'not written');
    worker.record('host:1:aa', 2, 5);
    assert.equal(rescuer.verdict('host:1:aa', 2, 5), 'last entry');
    const [file] = fs.readdirSync(dir);
    fs.appendFileSync(path.join(dir, file as string), '3 5');
    assert.equal(rescuer.verdict('host:1:aa', 3, 5), 'not written');
    assert.equal(rescuer.verdict('host:1:aa', 2, 5), 'last entry', 'a torn line is not yet written');
    fs.appendFileSync(path.join(dir, file as string), '\n');
    assert.equal(rescuer.verdict('host:1:aa', 3, 5), 'last entry');
    assert.equal(rescuer.verdict('host:1:aa', 2, 5), 'written');
    worker.close();
  });
});
