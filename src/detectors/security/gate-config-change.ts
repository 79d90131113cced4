import { isGateConfigPath, REPO_CONFIG_PATH, REPO_POLICIES_DIR } from "../../gate-file/repo-file.js";
import { addedLines, type PatchLine, removedLines } from "../../domain/patch.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import type { Detector } from "../detector.js";
import { securityFinding } from "./security-finding.js";

const SHOWN = 6;

/** What the change does to the file, in a few of its own lines. */
function describeChange(file: ChangedFile, added: PatchLine[]): string {
  const lines = [
    ...removedLines(file.patch).map((l) => `-${l.text.trim()}`),
    ...added.map((l) => `+${l.text.trim()}`),
  ].filter((l) => l.length > 1);
  const shown = lines.slice(0, SHOWN).map((l) => `\`${l.slice(0, 120)}\``);
  const more = lines.length > SHOWN ? `, and ${lines.length - SHOWN} more line(s)` : "";
  const how =
    file.status === "removed"
      ? "removes it"
      : file.status === "added"
        ? "adds it"
        : file.status === "renamed" && !isGateConfigPath(file.filename)
          ? `renames it to ${file.filename}`
          : "changes it";
  return shown.length > 0 ? `${how}: ${shown.join(", ")}${more}` : how;
}

/**
 * SEC-06: a pull request that adds, changes, renames or removes the repository's own gate
 * configuration: its `.github/gate.yml`, or a policy file under `.github/gate/policies/`. Its
 * review still runs with the base commit's files; the change applies once merged, so a person
 * approves it. The finding names the change.
 *
 * @example await gateConfigChangeDetector.detect(ctx) // [{ policy: "SEC-06", file: ".github/gate.yml", ... }]
 */
export const gateConfigChangeDetector: Detector = {
  id: "gate-config-change",
  policies: ["SEC-06"],
  covers: [],
  reads: (file) => isGateConfigPath(file.filename),
  async detect(ctx) {
    return ctx.pr.files
      .filter((f) => isGateConfigPath(f.filename) || isGateConfigPath(f.previousFilename))
      .map((f) => {
        const added = addedLines(f.patch);
        // The gate's file this change touches (a rename out of the folder still names where it was).
        const gateFile = isGateConfigPath(f.filename) ? f.filename : (f.previousFilename ?? f.filename);
        const what =
          gateFile === REPO_CONFIG_PATH
            ? `the gate's own configuration for this repository (${REPO_CONFIG_PATH})`
            : `one of the repository's own gate policies (${gateFile}, under ${REPO_POLICIES_DIR}/)`;
        return securityFinding({
          policy: "SEC-06",
          detector: "gate-config-change",
          severity: "high",
          blocking: true,
          file: f.filename,
          ...(added[0] ? { line: added[0].line } : {}),
          message:
            `This pull request edits ${what}; it ` +
            `${describeChange(f, added)}. This review used the base branch's files; the change applies once merged, so a person approves it.`,
        });
      });
  },
};
