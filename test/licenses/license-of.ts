import type { LicenseLookup } from "../../src/domain/license-resolver.js";

/**
 * The licence a lookup found, or undefined for any other answer (unknown or failed).
 *
 * @example await licenseOf(npm.lookup("npm", "left-pad")) // "MIT"
 */
export async function licenseOf(lookup: Promise<LicenseLookup>): Promise<string | undefined> {
  const answer = await lookup;
  return answer.status === "found" ? answer.license : undefined;
}
