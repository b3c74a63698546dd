// Percentiles and number formatting shared by the benchmarks.

/** The p-th percentile (nearest rank) of the values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const ms = (value: number, digits = 1) => `${value.toFixed(digits)} ms`;

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Pads a table row: the first cell left-aligned, the rest right-aligned. */
export function row(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ");
}
