import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { beijingDateTime, beijingDay } from '../src/beijing-time.ts';

describe('Beijing time', () => {
  it('names the Beijing day of an instant, turning at 16:00 UTC', () => {
    assert.equal(beijingDay(Date.parse('2026-11-27T15:59:59.999Z')), '2026-11-27');
    assert.equal(beijingDay(Date.parse('2026-11-27T16:00:00.000Z')), '2026-11-28');
    assert.equal(beijingDay(Date.parse('2026-11-27T15:59:59.999Z')), '2026-11-27', 'back across the turn');
    assert.equal(beijingDay(Date.parse('2026-12-31T16:00:00.000Z')), '2027-01-01');
    assert.equal(beijingDay(Date.parse('1969-12-31T16:00:00.000Z')), '1970-01-01', 'before the epoch');
    assert.equal(beijingDay(Date.parse('1969-12-31T15:59:59.999Z')), '1969-12-31');
  });

  it('gives the same day as the wall clock for every hour of a year', () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let at = start; at < start + 366 * 86_400_000; at += 3_600_000 - 1) {
      assert.equal(beijingDay(at), beijingDateTime(at).slice(0, 10));
    }
  });

  it('refuses an instant that is no time, as Date does', () => {
    assert.throws(() => beijingDay(Number.NaN), RangeError);
  });
});
