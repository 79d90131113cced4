import type { Detector } from "../detector.js";
import type { Finding } from "../../domain/finding.js";
import { addedText } from "./added-text.js";
import { looksBinary } from "./file-kind.js";
import { maskSecret } from "./mask-secret.js";
import { findSecretAssignments } from "./secret-assignment.js";
import { scanWithSecretlint } from "./secretlint-scan.js";
import { securityFinding } from "./security-finding.js";

/** One secret found in a text: the exact substring, its 1-based line, and the rule that found it. */
export interface FoundSecret {
  value: string;
  line: number;
  /** `<secretlint rule>:<messageId>` (e.g. "aws:AWSAccessKeyID") or "secret-assignment". */
  rule: string;
  /** What kind of secret, without the value, for messages. */
  label: string;
}

/**
 * Finds secrets in a text with secretlint's recommended rules plus high-entropy assignments to
 * secret-like names. The model layer redacts every returned `value` before text reaches a model.
 *
 * @example (await findSecrets('aws_key = "AKIAFAKEFIXTURE00001"'))[0]?.value // "AKIAFAKEFIXTURE00001"
 */
export async function findSecrets(text: string): Promise<FoundSecret[]> {
  if (text.trim() === "" || looksBinary(text)) return [];
  const known = await scanWithSecretlint(text);
  const found: FoundSecret[] = known.map((h) => ({ ...h }));
  for (const a of findSecretAssignments(text)) {
    // A value a provider rule already recognised (or part of it) is not reported twice.
    const overlaps = known.some((h) => h.line === a.line && (h.value.includes(a.value) || a.value.includes(h.value)));
    if (!overlaps) {
      found.push({
        value: a.value,
        line: a.line,
        rule: "secret-assignment",
        label: `secret-like value assigned to ${a.name}`,
      });
    }
  }
  const seen = new Set<string>();
  return found
    .filter((s) => {
      const key = `${s.line}\u0000${s.value}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.line - b.line);
}

/**
 * SEC-01: credentials in the added lines of any file (code, config, tests, docs).
 * Severity critical, blocking. Messages mask the value ("AKIA…0001 masked").
 *
 * @example await credentialsDetector.detect({ pr, head, licenses }) // [{ policy: "SEC-01", ... }]
 */
export const credentialsDetector: Detector = {
  id: "credentials",
  policies: ["SEC-01"],
  // Secrets are words: every kind of text is read for them.
  covers: ["code", "manifest", "workflow", "text"],
  reads: (file) => file.patch !== undefined,
  async detect(ctx) {
    const findings: Finding[] = [];
    for (const file of ctx.pr.files) {
      if (file.status === "removed" || !file.patch) continue;
      const added = addedText(file.patch);
      for (const secret of await findSecrets(added.text)) {
        const line = added.headLine(secret.line);
        findings.push(
          securityFinding({
            policy: "SEC-01",
            detector: "credentials",
            severity: "critical",
            blocking: true,
            file: file.filename,
            ...(line !== undefined ? { line } : {}),
            message:
              `${secret.label} (${maskSecret(secret.value)} masked) added in ${file.filename}: ` +
              "remove it, rotate it (it is in the branch history now), and read it from the environment or a secret store.",
          }),
        );
      }
    }
    return findings;
  },
};
