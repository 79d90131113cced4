import { createHash } from "node:crypto";

/** The part of a measured corpus a case belongs to: built and tuned on, or held aside until the end. */
export type Split = "dev" | "held";

/**
 * Which part a case of a measured corpus falls in: held aside when the first byte of sha256(id)
 * is 0 mod 3 (about a third), the rest is the part the detectors are built on. The same rule for
 * every corpus (scripts/secrets-eval.ts, scripts/sast-eval.ts; docs/eval.md), so a case never
 * changes side.
 *
 * @example splitOf("owasp-benchmark-java-BenchmarkTest00001") // "dev" or "held", always the same
 */
export function splitOf(id: string): Split {
  return (createHash("sha256").update(id).digest()[0] ?? 0) % 3 === 0 ? "held" : "dev";
}
