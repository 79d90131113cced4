import { parseDocument } from "yaml";
import { isGateConfigPath, REPO_CONFIG_PATH, REPO_POLICIES_DIR } from "../../gate-file/repo-file.js";
import { canonicalJson, normaliseCode, subjectDigest } from "../../domain/fingerprint.js";
import type { HeadFiles } from "../../domain/head-files.js";
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

/** A text's lines with whitespace collapsed, blank ones dropped: what it says, not its layout. */
function textSettings(text: string): string {
  return text
    .split("\n")
    .map(normaliseCode)
    .filter((l) => l !== "")
    .join("\n");
}

/**
 * The settings a configuration text makes: a YAML file's parsed value as canonical JSON (its
 * layout, key order and comments say nothing), else its text with whitespace collapsed.
 */
function settingsOf(file: string, text: string): string {
  if (/\.ya?ml$/.test(file)) {
    try {
      const doc = parseDocument(text);
      if (doc.errors.length === 0) return `yaml|${canonicalJson(doc.toJS({ maxAliasCount: 100 }) ?? null)}`;
    } catch {
      // not YAML the gate could read: its text stands for it
    }
  }
  return `text|${textSettings(text)}`;
}

/**
 * What a change to the gate's configuration makes, as a finding's `subject`: a digest of the
 * whole configuration the head gives the file (every setting in it, not one line), of its removal,
 * or, with no head file to read, of every line the patch adds and removes. Any change to what it
 * would configure is a new subject, so a decision on one edit never carries to another.
 */
async function changedSettings(head: HeadFiles, f: ChangedFile): Promise<string> {
  const where = [f.previousFilename ?? "", f.filename];
  if (f.status === "removed") return subjectDigest("removed", ...where);
  let text: string | undefined;
  try {
    text = await head.read(f.filename);
  } catch {
    text = undefined;
  }
  if (text !== undefined) return subjectDigest("head", ...where, settingsOf(f.filename, text));
  const lines = [
    ...removedLines(f.patch).map((l) => `-${normaliseCode(l.text)}`),
    ...addedLines(f.patch).map((l) => `+${normaliseCode(l.text)}`),
  ];
  return subjectDigest("patch", f.status, ...where, ...lines.filter((l) => l.length > 1));
}

/**
 * SEC-06: a pull request that adds, changes, renames or removes the repository's own gate
 * configuration: its `.github/gate.yml`, or a policy file under `.github/gate/policies/`. Its
 * review still runs with the base commit's files; the change applies once merged, so a person
 * approves it. The finding names the change; its `subject` is the whole configuration the change
 * makes (`changedSettings`), so its fingerprint changes with any setting.
 *
 * @example await gateConfigChangeDetector.detect(ctx) // [{ policy: "SEC-06", file: ".github/gate.yml", ... }]
 */
export const gateConfigChangeDetector: Detector = {
  id: "gate-config-change",
  policies: ["SEC-06"],
  covers: [],
  reads: (file) => isGateConfigPath(file.filename),
  async detect(ctx) {
    const changed = ctx.pr.files.filter((f) => isGateConfigPath(f.filename) || isGateConfigPath(f.previousFilename));
    return Promise.all(
      changed.map(async (f) => {
        const added = addedLines(f.patch);
        // The gate's file this change touches (a rename out of the folder still names where it was).
        const gateFile = isGateConfigPath(f.filename) ? f.filename : (f.previousFilename ?? f.filename);
        const what =
          gateFile === REPO_CONFIG_PATH
            ? `the gate's own configuration for this repository (${REPO_CONFIG_PATH})`
            : `one of the repository's own gate policies (${gateFile}, under ${REPO_POLICIES_DIR}/)`;
        return {
          ...securityFinding({
            policy: "SEC-06",
            detector: "gate-config-change",
            severity: "high",
            blocking: true,
            file: f.filename,
            ...(added[0] ? { line: added[0].line } : {}),
            message:
              `This pull request edits ${what}; it ` +
              `${describeChange(f, added)}. This review used the base branch's files; the change applies once merged, so a person approves it.`,
          }),
          subject: await changedSettings(ctx.head, f),
        };
      }),
    );
  },
};
