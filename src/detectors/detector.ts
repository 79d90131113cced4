import type { LedgerKind } from "../domain/coverage.js";
import type { ChangedFile, PullRequest } from "../domain/pull-request.js";
import type { Finding } from "../domain/finding.js";
import type { HeadFiles } from "../domain/head-files.js";
import type { LicenseResolver } from "../domain/license-resolver.js";
import type { AdvisorySource } from "../domain/advisory-source.js";
import type { LicenseRules, VulnerabilityRules } from "../gate-file/effective.js";
import type { DependencyReading } from "../ecosystems/dependency-reading.js";

/** What every detector receives. */
export interface DetectContext {
  pr: PullRequest;
  head: HeadFiles;
  licenses: LicenseResolver;
  /** The licence rules of the review's configuration (allow, deny, unknown, own packages). */
  licenseRules: LicenseRules;
  /**
   * Records that part of the change was not read (a detector's cap was reached): a cap records,
   * it never skips silently. The coverage ledger lists it and the review goes to a person.
   */
  notRead(file: string, detail: string): void;
  /**
   * Known vulnerabilities of exact package versions (OSV, an offline folder, or a fixture's
   * osv.json). The detect node always sets it; a context without it (one detector's own tests)
   * has no advisory data, so SEC-07 raises nothing there.
   */
  advisories?: AdvisorySource;
  /** SEC-07's thresholds (the defaults when absent). */
  vulnerabilityRules?: VulnerabilityRules;
  /**
   * The review's one reading of its manifests, shared by the licence checks (LIC-01/02) and SEC-07
   * so each manifest is parsed once. The detect node always sets it; without it each check reads for itself.
   */
  dependencies?: DependencyReading;
}

/**
 * A deterministic detector: free, so it runs on every PR. It must not throw on odd input
 * (a missing patch, binary text); the detect node still guards each call.
 *
 * @example const credentials: Detector = { id: "credentials", policies: ["SEC-01"], covers: ["text"], reads: (f) => !!f.patch, detect: async (ctx) => [] };
 */
export interface Detector {
  /** A short kebab-case name, e.g. "credentials". */
  id: string;
  /** The policy ids it can raise. */
  policies: string[];
  /**
   * The kinds of file this detector must read for the coverage ledger to call them read: a code
   * file that a code detector cannot read (its language) is unread code, and never a pass.
   */
  covers: readonly LedgerKind[];
  /** Whether it reads this file's content by what it says (a grammar, or a parser of its format). */
  reads(file: ChangedFile): boolean;
  detect(ctx: DetectContext): Promise<Finding[]>;
}
