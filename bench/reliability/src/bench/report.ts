/** Prints one figure as `BENCH reliability.<name> <value> <unit> [key=value ...]`. */
export function bench(
  name: string,
  value: string | number,
  unit: string,
  extras: Record<string, string | number> = {},
): void {
  const tail = Object.entries(extras).map(([k, v]) => ` ${k}=${v}`);
  console.log(`BENCH reliability.${name} ${value} ${unit}${tail.join("")}`);
}

/** The value of `--name N` on the command line, or `fallback`. */
export function numberFlag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const raw = i === -1 ? undefined : process.argv[i + 1];
  const value = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(value) ? value : fallback;
}

/** True when `--name` is on the command line. */
export const flag = (name: string): boolean => process.argv.includes(`--${name}`);
