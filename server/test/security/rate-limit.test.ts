import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PUBLIC } from '@herald/shared';
import { RateLimiter } from '../../src/core/rate-limit/rate-limiter.ts';
import { JOBS, TASKS } from '../../src/worker/registry.ts';
import { pruneChallenges } from '../../src/worker/tasks/prune-challenges.task.ts';
import { pruneRateLimits } from '../../src/worker/tasks/prune-rate-limits.task.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

describe('rate limits', () => {
  let t: TestApp;
  let clock = Date.UTC(2026, 0, 1, 12, 0, 0);
  let limiter: RateLimiter;
  before(async () => {
    t = await buildTestApp({
      prepare(app) {
        app.post(
          '/v3/test/limited',
          {
            config: {
              access: PUBLIC,
              rateLimit: {
                bucket: 'test.by-user',
                limit: 2,
                windowMs: 60_000,
                key: (request) => String((request.body as { user?: string } | undefined)?.user ?? 'anon'),
              },
            },
          },
          async () => ({ data: 'ok' }),
        );
        app.get('/v3/test/unlimited', { config: { access: PUBLIC } }, async () => ({ data: 'ok' }));
      },
    });
    limiter = new RateLimiter(t.core.database, { now: () => clock });
  });
  after(() => t.close());

  it('counts hits per bucket and key in fixed windows and says when the window reopens', async () => {
    for (let i = 1; i <= 3; i++) {
      assert.deepEqual(await limiter.hit('login', '10.0.0.1', 3, 60_000), {
        allowed: true,
        retryAfterMs: 0,
        count: i,
      });
    }
    clock += 15_000;
    assert.deepEqual(await limiter.hit('login', '10.0.0.1', 3, 60_000), {
      allowed: false,
      retryAfterMs: 45_000,
      count: 4,
    });
    assert.equal((await limiter.hit('login', '10.0.0.2', 3, 60_000)).allowed, true, 'another key');
    assert.equal((await limiter.hit('register', '10.0.0.1', 3, 60_000)).allowed, true, 'another bucket');
    clock += 45_000;
    assert.deepEqual(await limiter.hit('login', '10.0.0.1', 3, 60_000), {
      allowed: true,
      retryAfterMs: 0,
      count: 1,
    });
  });

  it('keeps counting correctly under concurrent hits', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => limiter.hit('burst', 'k', 10, 60_000)),
    );
    assert.deepEqual(
      results.map((r) => r.count).sort((a, b) => a - b),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    assert.equal(results.filter((r) => r.allowed).length, 10);
  });

  it('cuts very long keys rather than storing them whole', async () => {
    const long = 'k'.repeat(1000);
    await limiter.hit('long', long, 5, 60_000);
    assert.equal((await limiter.hit('long', `${long}different-tail`, 5, 60_000)).count, 2);
  });

  it('enforces a route option with a key from the request: 429 with retry-after in both languages', async () => {
    const post = (user: string, lang = 'en') =>
      t.app.inject({ method: 'POST', url: '/v3/test/limited', headers: { lang }, payload: { user } });
    assert.equal((await post('ada')).statusCode, 200);
    assert.equal((await post('ada')).statusCode, 200);
    const limited = await post('ada');
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().code, 'COMMON_RATE_LIMITED');
    assert.equal(limited.json().message, 'Too many requests, please try again later');
    assert.ok(Number(limited.headers['retry-after']) >= 1 && Number(limited.headers['retry-after']) <= 60);
    assert.equal((await post('ada', 'zh-cn')).json().message, '请求过于频繁，请稍后再试');
    assert.equal((await post('bob')).statusCode, 200, 'another key has its own allowance');
    for (let i = 0; i < 5; i++) {
      assert.equal((await t.app.inject({ method: 'GET', url: '/v3/test/unlimited' })).statusCode, 200);
    }
  });

  it('prunes ended windows from a periodic task', async () => {
    const ended = new RateLimiter(t.core.database, { now: () => Date.now() - 3600_000 });
    await ended.hit('old', 'k', 1, 60_000);
    const count = () =>
      t.core.database.db
        .selectFrom('rate_limits')
        .select('key')
        .where('bucket', '=', 'old')
        .execute()
        .then((rows) => rows.length);
    assert.equal(await count(), 1);
    await pruneRateLimits.handle(t.core, undefined, new AbortController().signal);
    assert.equal(await count(), 0);
    await pruneChallenges.handle(t.core, undefined, new AbortController().signal);
  });

  it('registers both pruning tasks with the worker', () => {
    assert.ok(JOBS.some((j) => j.name === 'system.prune-rate-limits'));
    assert.ok(JOBS.some((j) => j.name === 'system.prune-challenges'));
    assert.ok(TASKS.some((task) => task.id === 'system.prune-rate-limits' && task.job === pruneRateLimits));
    assert.ok(TASKS.some((task) => task.id === 'system.prune-challenges' && task.job === pruneChallenges));
  });
});
