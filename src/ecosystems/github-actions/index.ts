import type { Ecosystem } from "../ecosystem.js";
import { semverOrder } from "../common/version-order.js";

/**
 * GitHub Actions: the actions a workflow uses (`uses: owner/repo@v4`). OSV names their advisories
 * under "GitHub Actions"; the gate reads no action's licence, and no reader of workflows for
 * dependency changes is registered yet (SEC-04 reads workflows as workflows). Tags order as semver
 * with their `v`.
 */
export const githubActions: Ecosystem = {
  name: "github-actions",
  osvName: "GitHub Actions",
  manifestParsers: [],
  versionReaders: [],
  versionOrder: () => semverOrder(true),
};
