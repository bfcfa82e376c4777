const CHUNK = 65_536;

/** Length of the common prefix: whole chunks compared natively, then a binary search in the last. */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let lo = 0;
  while (lo + CHUNK <= n && a.slice(lo, lo + CHUNK) === b.slice(lo, lo + CHUNK)) lo += CHUNK;
  let hi = Math.min(n, lo + CHUNK);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (a.slice(lo, mid) === b.slice(lo, mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Length of the common suffix, at most `min(length) - limit`, found the same way. */
export function commonSuffix(a: string, b: string, limit: number): number {
  const n = Math.min(a.length, b.length) - limit;
  const same = (from: number, to: number) =>
    a.slice(a.length - to, a.length - from) === b.slice(b.length - to, b.length - from);
  let lo = 0;
  while (lo + CHUNK <= n && same(lo, lo + CHUNK)) lo += CHUNK;
  let hi = Math.min(n, lo + CHUNK);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (same(lo, mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
