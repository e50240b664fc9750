import os from 'node:os';

/** One figure of a benchmark: a JSON line on stdout, with the machine it was measured on. */
export function report(figure: Record<string, string | number | boolean | null>): void {
  const machine = `${os.cpus().length} cpu ${os.cpus()[0]?.model ?? 'unknown'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`;
  process.stdout.write(`${JSON.stringify({ ...figure, machine, at: new Date().toISOString() })}\n`);
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** The p-th percentile of ascending `sorted` (0 when empty). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

/**
 * Starts `one()` `perSecond` times a second until `stop()` says so or `count` were started, and
 * answers what they resolved to, ascending (the latencies a figure's percentiles are read from).
 */
export async function paced(
  perSecond: number,
  one: () => Promise<number>,
  stop: () => boolean,
  count = Number.POSITIVE_INFINITY,
): Promise<number[]> {
  const running: Promise<number>[] = [];
  for (let i = 0; i < count && !stop(); i++) {
    running.push(one());
    await new Promise((r) => setTimeout(r, 1000 / perSecond));
  }
  return (await Promise.all(running)).sort((a, b) => a - b);
}
