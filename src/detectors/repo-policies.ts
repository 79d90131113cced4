import { messageOf } from "../domain/errors.js";
import type { Policy } from "../domain/policy.js";
import { parsePolicyFile } from "../policy/load-policies.js";
import { policyRuleDetectors } from "./policy-rules.js";

/**
 * A repository's own policy files (`.github/gate/policies/*.md` at the base commit), read as the
 * server's are and checked the same way: each file parses, each of its ast-grep rules compiles.
 * They can only add to the server's corpus: an id the server's corpus (or another of the
 * repository's files) already has is refused, so a repository never replaces or lowers a server
 * policy. With any problem none of them is used and the problem is returned, naming the file (and
 * for a rule, its line and id): the review then goes to a person with it.
 *
 * @example repositoryPolicies([{ source: "acme/web:.github/gate/policies/ACME-01.md@abc", text }], serverPolicies).policies[0]?.id // "ACME-01"
 */
export function repositoryPolicies(
  files: readonly { source: string; text: string }[],
  server: readonly Pick<Policy, "id" | "source">[],
): { policies: Policy[]; problem?: string } {
  if (files.length === 0) return { policies: [] };
  const problems: string[] = [];
  const policies: Policy[] = [];
  const taken = new Map(server.map((p) => [p.id, `the server's ${p.source}`]));
  for (const file of files) {
    let policy: Policy;
    try {
      policy = parsePolicyFile(file.source, file.text);
      policyRuleDetectors([policy]);
    } catch (error) {
      problems.push(messageOf(error));
      continue;
    }
    const other = taken.get(policy.id);
    if (other) {
      problems.push(`${file.source}: policy id ${policy.id} is already ${other}; a repository may only add policies`);
      continue;
    }
    taken.set(policy.id, file.source);
    policies.push(policy);
  }
  if (problems.length === 0) return { policies };
  return {
    policies: [],
    problem: `${problems.join("; ")}; the repository's own policies were not used, so a person decides`,
  };
}
