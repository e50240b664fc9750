/**
 * DKIM signing rate: rsa-sha256 relaxed/relaxed with a 2048-bit key over a 2 KB message, on the
 * event loop (one thread) and through the worker pool (os.availableParallelism() threads, 64 jobs
 * in flight).
 *
 *   npm run bench -- dkim-sign        BENCH_SIGNATURES (default 5000 per mode)
 */
import { generateKeyPairSync } from 'node:crypto';
import os from 'node:os';
import { DkimPool } from '../server/src/mta/dkim/dkim-pool.ts';
import { dkimSign } from '../server/src/mta/dkim/dkim-sign.ts';
import { report, round } from './report.ts';

const SIGNATURES = Number(process.env.BENCH_SIGNATURES ?? 5000);
const IN_FLIGHT = 64;

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = { id: 'bench', domain: 'example.com', selector: 'bench', privateKey };

const headers = [
  'From: Herald <news@example.com>',
  'To: someone@example.org',
  'Subject: Your weekly digest',
  'Date: Sun, 22 Nov 2026 08:00:00 +0000',
  'Message-ID: <bench@example.com>',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: 8bit',
  'List-Unsubscribe: <https://example.com/u/1>',
  'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
].join('\r\n');
const line = 'The quick brown fox jumps over the lazy dog; 敏捷的棕色狐狸. \r\n';
let body = '';
while (Buffer.byteLength(`${headers}\r\n\r\n${body}${line}`) <= 2048) body += line;
const message = Buffer.from(`${headers}\r\n\r\n${body}`);

// Warm up both paths so neither pays for JIT or key parsing in the figure.
for (let i = 0; i < 50; i++) dkimSign(message, key);

const singleCpu = process.cpuUsage();
const singleStart = performance.now();
for (let i = 0; i < SIGNATURES; i++) dkimSign(message, key);
const singleSeconds = (performance.now() - singleStart) / 1000;
const singleCpuMs = cpuMs(process.cpuUsage(singleCpu));
report({
  bench: 'dkim-sign',
  mode: 'single thread',
  messageBytes: message.length,
  signatures: SIGNATURES,
  perSecond: round(SIGNATURES / singleSeconds),
  cpuMsPerSignature: round(singleCpuMs / SIGNATURES, 3),
});

const pool = new DkimPool();
const poolSize = pool.size;
await Promise.all(Array.from({ length: pool.size * 10 }, () => pool.sign(message, key)));
const poolCpu = process.cpuUsage();
const poolStart = performance.now();
let started = 0;
async function lane(): Promise<void> {
  while (started < SIGNATURES) {
    started++;
    await pool.sign(message, key);
  }
}
await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
const poolSeconds = (performance.now() - poolStart) / 1000;
const poolCpuMs = cpuMs(process.cpuUsage(poolCpu));
await pool.close();
report({
  bench: 'dkim-sign',
  mode: `pool of ${poolSize}`,
  messageBytes: message.length,
  signatures: SIGNATURES,
  perSecond: round(SIGNATURES / poolSeconds),
  cpuMsPerSignature: round(poolCpuMs / SIGNATURES, 3),
  speedup: round(singleSeconds / poolSeconds, 2),
  loadAverage: round(os.loadavg()[0] ?? 0, 2),
});

/** User + system CPU of every thread of the process (workers included), in ms. */
function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}
