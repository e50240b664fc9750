/** Balances travel in integer fen; the console shows yuan with two decimals (¥1,234.50). */
export function fenToYuan(fen: number): string {
  const yuan = Math.round(fen) / 100;
  return yuan.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
