/** Package ecosystems whose licences the gate resolves. */
export type Ecosystem = "npm" | "pypi" | "go" | "cargo";

/**
 * Resolves a package's licence (an SPDX expression). Offline it reads a fixture's
 * `registry.json`; live it asks the registry. `undefined` means unknown, never permissive.
 */
export interface LicenseResolver {
  resolve(ecosystem: Ecosystem, name: string, version?: string): Promise<string | undefined>;
}
