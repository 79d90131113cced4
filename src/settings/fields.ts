import { z } from "zod";

/** The environment the settings are read from: `process.env` at the entry points, a plain object in tests. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The environment without its blank variables: `FOO=` means "not set", so its default applies.
 * The one place blank settings are dropped.
 *
 * @example presentIn({ A: "1", B: "", C: undefined }) // { A: "1" }
 */
export function presentIn(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== "") out[key] = value;
  }
  return out;
}

/** An integer of at least `min`. */
export const integer = (min: number) => z.coerce.number().int().min(min);

/** `true`/`false` and their usual spellings. */
export const flag = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"])
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

/** An http(s) URL. */
export const httpUrl = z.string().regex(/^https?:\/\/\S+$/, "must be an http(s) URL");

/**
 * A comma-separated list, trimmed, empty items dropped, duplicates removed.
 *
 * @example listOf("U1, U2,,U1") // ["U1", "U2"]
 */
export function listOf(value: string, separator = ","): string[] {
  return [
    ...new Set(
      value
        .split(separator)
        .map((s) => s.trim())
        .filter((s) => s !== ""),
    ),
  ];
}

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A duration such as `90s`, `30m`, `4h` or `1d`, in milliseconds.
 *
 * @example duration.parse("4h") // 14400000
 */
export const duration = z
  .string()
  .trim()
  .regex(/^\d{1,6}[smhd]$/, "must be a duration such as 30m, 4h or 1d")
  .transform((v) => Number(v.slice(0, -1)) * UNIT_MS[v.slice(-1) as keyof typeof UNIT_MS]);
