import type { Detector } from "../detector.js";
import type { Finding } from "../../domain/finding.js";
import { subjectDigest } from "../../domain/fingerprint.js";
import type { HeadFiles } from "../../domain/head-files.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import { configFormatOf } from "../../config-formats/index.js";
import { headText } from "../code/head-text.js";
import { precheck } from "../precheck.js";
import { addedText } from "./added-text.js";
import { findConfigSecrets, namedOutOfView } from "./config-secrets.js";
import { looksBinary } from "./file-kind.js";
import { maskSecret } from "./mask-secret.js";
import { findSecretAssignments } from "./secret-assignment.js";
import { MAY_NAME_SECRET } from "./secret-names.js";
import { isSequence, isVendorExample, notASecret } from "./secret-values.js";
import { credentialsInValue, mayHoldValueCredential, passwordArguments } from "./value-credentials.js";
import { scanWithSecretlint } from "./secretlint-scan.js";
import { securityFinding } from "./security-finding.js";

/** One secret found in a text: the exact substring, its 1-based line, and the rule that found it. */
export interface FoundSecret {
  value: string;
  line: number;
  /**
   * `<secretlint rule>:<messageId>` (e.g. "aws:AWSAccessKeyID"), "secret-assignment", a value rule
   * ("connection-string", "url-credentials", "authorization-header"), or a configuration rule
   * (`config:<format>:<rule>`, e.g. "config:yaml:kubernetes-secret").
   */
  rule: string;
  /** What kind of secret, without the value, for messages. */
  label: string;
}

/**
 * Finds secrets in a text with secretlint's recommended rules, credentials inside values
 * (connection strings, URLs with a password, auth headers) and high-entropy assignments to
 * secret-like names. With the path of a configuration file, assignments are left to the file's
 * structured reading (`findConfigSecrets`), which judges every literal of a secret-like key. The
 * model layer redacts every returned `value` before text reaches a model.
 *
 * @example (await findSecrets('aws_key = "AKIAFAKEFIXTURE00001"'))[0]?.value // "AKIAFAKEFIXTURE00001"
 */
export async function findSecrets(text: string, path?: string): Promise<FoundSecret[]> {
  if (text.trim() === "" || looksBinary(text)) return [];
  const found: FoundSecret[] = (await scanWithSecretlint(text)).filter(
    (h) => !isVendorExample(h.value) && !isSequence(h.value) && !placeholderUrl(h),
  );
  const format = path === undefined ? undefined : configFormatOf(path);
  // A configuration file's own `KEY=value` lines are its reader's, read with their context.
  const assignments = !format || format.embedsCode === true;
  // A call's arguments may go over several lines (`getConnection(url,\n "app", "pw")`).
  for (const c of passwordArguments(text)) {
    const at = text.indexOf(c.value, c.index);
    const line = text.slice(0, at < 0 ? c.index : at).split("\n").length;
    found.push({ value: c.value, line, rule: c.rule, label: c.label });
  }
  text.split("\n").forEach((raw, index) => {
    // `"app" + ":pw" + "@tcp(db)/"` is one string: literals joined by `+` are read joined.
    const lineText = joinLiterals(raw);
    if (!precheck(mayHoldValueCredential(lineText))) return;
    for (const c of credentialsInValue(lineText, { assignments }))
      found.push({ value: c.value, line: index + 1, rule: c.rule, label: c.label });
  });
  if (assignments) {
    for (const a of findSecretAssignments(text)) {
      found.push({
        value: a.value,
        line: a.line,
        rule: "secret-assignment",
        label: `secret-like value assigned to ${a.name}`,
      });
    }
  }
  return distinct(found);
}

/**
 * A line with the string literals it joins by `+` written as one (`"a" + "b"` as `"ab"`), so a
 * credential split over pieces is read whole; a line with nothing to join is returned as it is.
 *
 * @example joinLiterals('dsn := "app" + ":pw" + "@tcp(db)/"') // 'dsn := "app:pw@tcp(db)/"'
 */
export function joinLiterals(line: string): string {
  if (!line.includes("+")) return line;
  let out = line;
  for (let i = 0; i < 20; i++) {
    const next = out
      .replace(/"([^"\\]*)"\s*\+\s*"([^"\\]*)"/, '"$1$2"')
      .replace(/'([^'\\]*)'\s*\+\s*'([^'\\]*)'/, "'$1$2'");
    if (next === out) break;
    out = next;
  }
  return out;
}

/**
 * A URL rule's hit (secretlint's connection-string and basic-auth rules) whose password is a
 * placeholder: `mongodb+srv://app:<password>@...`, `USERNAME:PASSWORD@`. The same judge as every
 * other password decides.
 */
function placeholderUrl(hit: { value: string; rule: string }): boolean {
  if (!/^(database-connection-string|basicauth):/.test(hit.rule)) return false;
  const m = /:\/\/([^\s:/@]*):([^\s@]*)@/.exec(hit.value);
  return m !== null && notASecret(m[2] ?? "", "password", { key: "password", users: [m[1] ?? ""] }) !== undefined;
}

/** One finding per secret: a value another rule already reported on the same line (or part of it) is dropped. */
function distinct(found: readonly FoundSecret[]): FoundSecret[] {
  const out: FoundSecret[] = [];
  for (const s of found) {
    const overlaps = out.some((o) => o.line === s.line && (o.value.includes(s.value) || s.value.includes(o.value)));
    if (!overlaps) out.push(s);
  }
  return out.sort((a, b) => a.line - b.line);
}

/**
 * What makes a configuration file worth reading by structure: a secret word, a URL with user info,
 * or a base64-looking value (a Kubernetes Secret's data, whose `kind` the hunk may not show).
 * Without any, no rule can fire.
 */
const CONFIG_CUE = /kind:\s*Secret|stringData|:\/\/[^\s/]*:[^\s/]*@|:\s*["']?[A-Za-z0-9+/]{4,}={0,2}["']?\s*$/im;

/**
 * False only when reading a configuration file by its structure can find nothing: its hunks name
 * no secret, hold no URL with user info and no base64-looking value, and no added value takes its
 * name from rows out of view (`namedOutOfView`).
 */
function mayHoldConfigSecret(file: ChangedFile & { patch: string }): boolean {
  const view = headText(file);
  if (MAY_NAME_SECRET.test(view.text) || CONFIG_CUE.test(view.text)) return true;
  const added = new Set<number>();
  view.added.forEach((isAdded, i) => {
    if (isAdded) added.add(i);
  });
  return namedOutOfView(file.filename, view.text.split("\n"), added);
}

/**
 * The rows a configuration file is read from and which are added: the head file whole when the
 * snapshot has it (its structure, e.g. a Kubernetes document's `kind`, may sit far from the
 * change), else the patch's head side (context and added lines, a blank row between hunks).
 */
async function configRows(
  file: ChangedFile & { patch: string },
  head: HeadFiles,
): Promise<{ rows: string[]; lineOf: (row: number) => number | undefined; added: Set<number> }> {
  const view = headText(file);
  let whole: string | undefined;
  try {
    whole = await head.read(file.filename);
  } catch {
    // The patch holds every added line: reading its hunks loses context, never an added line.
    whole = undefined;
  }
  if (whole !== undefined && !looksBinary(whole)) {
    const added = new Set<number>();
    view.added.forEach((isAdded, i) => {
      const line = view.lines[i];
      if (isAdded && line !== undefined) added.add(line - 1);
    });
    return { rows: whole.split("\n"), lineOf: (row) => row + 1, added };
  }
  const added = new Set<number>();
  view.added.forEach((isAdded, i) => {
    if (isAdded) added.add(i);
  });
  return { rows: view.text.split("\n"), lineOf: (row) => view.lines[row], added };
}

/**
 * Every secret a changed file adds, with head line numbers: the added text's secrets, and for a
 * configuration file (JSON, YAML, TOML, INI, properties, XML, env, Terraform, Dockerfile) those its
 * structure shows.
 */
async function secretsOfFile(file: ChangedFile & { patch: string }, head: HeadFiles): Promise<FoundSecret[]> {
  const added = addedText(file.patch);
  const found = (await findSecrets(added.text, file.filename)).flatMap((s) => {
    const line = added.headLine(s.line);
    return line === undefined ? [] : [{ ...s, line }];
  });
  if (configFormatOf(file.filename) && precheck(mayHoldConfigSecret(file))) {
    const { rows, lineOf, added: addedRows } = await configRows(file, head);
    for (const s of findConfigSecrets(file.filename, rows, addedRows) ?? []) {
      const line = lineOf(s.row);
      if (line !== undefined) found.push({ value: s.value, line, rule: s.rule, label: s.label });
    }
  }
  return distinct(found);
}

/**
 * SEC-01: credentials in the added lines of any file (code, config, tests, docs).
 * Severity critical, blocking. Messages mask the value ("AKIA…0001 masked") and name the rule.
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
      for (const secret of await secretsOfFile(file as ChangedFile & { patch: string }, ctx.head)) {
        findings.push({
          ...securityFinding({
            policy: "SEC-01",
            detector: "credentials",
            severity: "critical",
            blocking: true,
            file: file.filename,
            line: secret.line,
            message:
              `${secret.label} (${maskSecret(secret.value)} masked; rule ${secret.rule}) added in ${file.filename}: ` +
              "remove it, rotate it (it is in the branch history now), and read it from the environment or a secret store.",
          }),
          // The key material, digested: another key on the same line is another finding to decide on.
          subject: subjectDigest("secret", secret.value),
        });
      }
    }
    return findings;
  },
};
