import { addedLines, type PatchLine } from "../../domain/patch.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import { classifyLicense } from "../../licenses/license-policy.js";
import type { DetectContext, Detector } from "../detector.js";
import type { Finding } from "../../domain/finding.js";

/** `COPYING`, `LICENSE`, `LICENCE`, `COPYING.txt`, `LICENSE.md`, `LICENSE-GPL`: a licence text (not `license.go`). */
const LICENSE_FILE =
  /^(?:COPYING|LICEN[CS]E|Licen[cs]e|licen[cs]e|copying)(?:[-_.](?:txt|md|rst|markdown|[A-Z0-9][A-Za-z0-9.-]*))?$/;
/** A comment line carrying an SPDX tag (`// SPDX-License-Identifier: GPL-2.0-only`, `# ...`, ` * ...`). */
const SPDX_TAG = /^[\s/*#;%!-]*(?:<!--\s*)?SPDX-License-Identifier:\s*(.+?)\s*(?:\*\/|-->)?\s*$/;
/** The words of a GPL or AGPL notice; "GNU Lesser/Library General Public License" do not match. */
const GPL_NOTICE = /GNU\s+(?:Affero\s+)?General\s+Public\s+License/i;
/** Titles of strong copyleft licence texts (the LGPL's own title says "Lesser" or "Library"). */
const COPYLEFT_TITLE =
  /GNU\s+(?:AFFERO\s+)?GENERAL\s+PUBLIC\s+LICENSE|Server\s+Side\s+Public\s+License|European\s+Union\s+Public\s+Licen[cs]e|Open\s+Software\s+License/i;
const WEAK_TITLE = /GNU\s+(?:LESSER|LIBRARY)\s+GENERAL\s+PUBLIC\s+LICENSE/i;
/** A licence notice sits at the top of a file. */
const HEADER_LINES = 60;
/** Prose and data files quote licence names without being under them. */
const NOT_SOURCE = /\.(?:md|markdown|rst|adoc|txt|json|ya?ml|toml|lock|csv|html?)$/i;

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

async function linesOf(ctx: DetectContext, file: ChangedFile): Promise<PatchLine[]> {
  if (file.patch !== undefined) return addedLines(file.patch);
  let text: string | undefined;
  try {
    text = await ctx.head.read(file.filename);
  } catch {
    text = undefined;
  }
  return (text ?? "").split("\n").map((t, i): PatchLine => ({ kind: "add", line: i + 1, text: t }));
}

function finding(file: string, line: number, message: string): Finding {
  return {
    specialty: "licensing",
    policy: "LIC-03",
    severity: "high",
    blocking: true,
    needs_more_context: false,
    file,
    line,
    message,
    source: "detector",
    detector: "copyleft-source",
  };
}

/** A licence text file in a subfolder whose title is a strong copyleft licence. */
function licenseText(path: string, lines: PatchLine[]): Finding | undefined {
  // The first licence name near the top is the title; the GPL's preamble names the LGPL later on.
  const top = lines.filter((l) => l.text.trim() !== "").slice(0, 15);
  const title = top.find((l) => COPYLEFT_TITLE.test(l.text) || WEAK_TITLE.test(l.text));
  if (!title || WEAK_TITLE.test(title.text)) return undefined;
  return finding(
    path,
    title.line,
    `${path} is a copyleft licence text (${title.text.trim()}): the code vendored beside it comes under ` +
      "that licence. Replace it with a permissively licensed library, or get a licence exception.",
  );
}

/** The first added line of a source file that tags or announces a strong copyleft licence. */
function sourceNotice(path: string, lines: PatchLine[]): Finding | undefined {
  for (const l of lines) {
    if (l.line > HEADER_LINES) break;
    const tag = SPDX_TAG.exec(l.text);
    if (tag?.[1] !== undefined && classifyLicense(tag[1]).copyleft) {
      return finding(
        path,
        l.line,
        `${path} is tagged SPDX-License-Identifier: ${tag[1]}, a strong copyleft licence: copying it in ` +
          "puts the product under its terms. Use a permissively licensed source, or get a licence exception.",
      );
    }
    if (!NOT_SOURCE.test(path) && GPL_NOTICE.test(l.text)) {
      return finding(
        path,
        l.line,
        `${path} carries a GNU GPL/AGPL licence notice ("${l.text.trim().slice(0, 120)}"): it is copied ` +
          "copyleft source. Use a permissively licensed source, or get a licence exception.",
      );
    }
  }
  return undefined;
}

/**
 * Third-party source copied in under a copyleft licence (LIC-03): added files with a copyleft
 * `SPDX-License-Identifier` or a GPL/AGPL notice near the top, and added COPYING/LICENSE files in a
 * subfolder (vendor/, third_party/) whose text is a GPL, AGPL, SSPL, EUPL or OSL licence. The
 * repository's own root licence is the project's choice, not copied code, and is not flagged.
 * One finding per file.
 *
 * @example await copyleftSourceDetector.detect(ctx) // [{ policy: "LIC-03", file: "vendor/fastjson/parse.c", line: 3, ... }]
 */
export const copyleftSourceDetector: Detector = {
  id: "copyleft-source",
  policies: ["LIC-03"],
  async detect(ctx) {
    const findings: Finding[] = [];
    for (const file of ctx.pr.files) {
      if (file.status !== "added" && file.status !== "copied") continue;
      const lines = await linesOf(ctx, file);
      const isLicenseText = LICENSE_FILE.test(baseName(file.filename));
      const found = isLicenseText
        ? file.filename.includes("/")
          ? licenseText(file.filename, lines)
          : undefined
        : sourceNotice(file.filename, lines);
      if (found) findings.push(found);
    }
    return findings;
  },
};
