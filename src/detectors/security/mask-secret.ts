/**
 * Masks a secret for a message a person reads: never the whole value, and less of a short one.
 *
 * @example maskSecret("AKIAFAKEFIXTURE0XYZW") // "AKIA…XYZW"
 */
export function maskSecret(value: string): string {
  const flat = value.replace(/\s+/g, " ").trim();
  if (flat.length >= 20) return `${flat.slice(0, 4)}…${flat.slice(-4)}`;
  if (flat.length >= 12) return `${flat.slice(0, 2)}…${flat.slice(-2)}`;
  return `… (${flat.length} characters)`;
}
