import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { QUEUES } from '../../src/queue/names.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { sampleValue } from '../helpers/metrics.ts';

describe('ops endpoints', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('answers /healthz', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  it('answers /readyz with the state of the database and the queue', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ready', checks: { database: 'ok', queue: 'ok' } });
  });

  it('exposes queue depth per state, job counters and HTTP latency at /metrics', async () => {
    await t.core.queue.enqueue(QUEUES.system, 'system.forget-nodes', null);
    await t.core.queue.enqueue(QUEUES.system, 'system.forget-nodes', null, { delayMs: 60_000 });
    await t.app.inject({ method: 'GET', url: '/healthz' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.equal(sampleValue(res.body, 'herald_queue_jobs', { queue: 'system', state: 'waiting' }), 1);
    assert.equal(sampleValue(res.body, 'herald_queue_jobs', { queue: 'system', state: 'delayed' }), 1);
    assert.equal(sampleValue(res.body, 'herald_queue_jobs', { queue: 'mail', state: 'dead' }), 0);
    const latency = { method: 'GET', route: '/healthz', status_code: '200' };
    assert.ok((sampleValue(res.body, 'herald_http_request_duration_seconds_count', latency) ?? 0) >= 1);
    assert.match(res.body, /# TYPE herald_jobs_processed_total counter/);
  });
});
