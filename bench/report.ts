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
