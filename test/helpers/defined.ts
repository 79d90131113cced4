/**
 * The value, or a failed test naming what was missing: what a test would otherwise assert with `!`.
 *
 * @example const review = defined(await store.get(id), `review ${id}`);
 */
export function defined<T>(value: T | null | undefined, what = "a value"): T {
  if (value === undefined || value === null) throw new Error(`expected ${what}, found ${String(value)}`);
  return value;
}
