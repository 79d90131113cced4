import type { PullRequest } from "../domain/pull-request.js";
import type { Finding } from "../domain/finding.js";

/** Read-only access to files of the PR's head commit, when a snapshot exists. */
export interface HeadFiles {
  /** The file's text at the head SHA, or undefined when there is no snapshot or no such file. */
  read(path: string): Promise<string | undefined>;
}

/** Package ecosystems whose licences the gate resolves. */
export type Ecosystem = "npm" | "pypi" | "go" | "cargo";

/**
 * Resolves a package's licence (an SPDX expression). Offline it reads a fixture's
 * `registry.json`; live it asks the registry. `undefined` means unknown, never permissive.
 */
export interface LicenseResolver {
  resolve(ecosystem: Ecosystem, name: string, version?: string): Promise<string | undefined>;
}

/** What every detector receives. */
export interface DetectContext {
  pr: PullRequest;
  head: HeadFiles;
  licenses: LicenseResolver;
}

/**
 * A deterministic detector: free, so it runs on every PR. It must not throw on odd input
 * (a missing patch, binary text); the detect node still guards each call.
 *
 * @example const credentials: Detector = { id: "credentials", policies: ["SEC-01"], detect: async (ctx) => [] };
 */
export interface Detector {
  /** A short kebab-case name, e.g. "credentials". */
  id: string;
  /** The policy ids it can raise. */
  policies: string[];
  detect(ctx: DetectContext): Promise<Finding[]>;
}
