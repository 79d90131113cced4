import fs from "node:fs";
import path from "node:path";
import { GateError, messageOf } from "../domain/errors.js";
import { PolicyMetaSchema, type Policy } from "../domain/policy.js";
import { cachedFrontMatter, FRONT_MATTER, type ParsedFrontMatter, ruleLines } from "./front-matter-cache.js";

/**
 * Parses one policy file: YAML front matter (validated) above Markdown prose.
 *
 * @example parsePolicyFile("SEC-01.md", "---\nid: SEC-01\n...\n---\n# SEC-01 ...")
 */
export function parsePolicyFile(source: string, text: string, read: { rules: boolean } = { rules: true }): Policy {
  const found = FRONT_MATTER.exec(text);
  const match = found && !read.rules ? withoutRules(found) : found;
  if (!match) {
    throw new GateError("POLICY_INVALID", `${source}: no YAML front matter (a '---' block at the top)`);
  }
  let front: ParsedFrontMatter;
  try {
    front = cachedFrontMatter(match[1] ?? "");
  } catch (error) {
    throw new GateError("POLICY_INVALID", `${source}: front matter is not YAML: ${messageOf(error)}`, {
      cause: error,
    });
  }
  // A dozen small parses at start: zod's generated fast parser would cost more to build than it saves.
  const meta = front.meta;
  const parsed = PolicyMetaSchema.safeParse(meta, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "(front matter)";
    const [top, index] = issue?.path ?? [];
    if (top === "rules" && typeof index === "number") {
      // A rule's own problem names the rule: its line and its id, as an ast-grep refusal does.
      const rule = (meta as { rules?: { id?: unknown }[] }).rules?.[index];
      const id = typeof rule?.id === "string" ? rule.id : `#${index + 1}`;
      const policyId = (meta as { id?: unknown }).id;
      const line = ruleLines(match[1] ?? "", index + 1)[index];
      throw new GateError(
        "POLICY_INVALID",
        `${source}:${line}: rule ${id}${typeof policyId === "string" ? ` of ${policyId}` : ""}: field '${field}': ${issue?.message ?? "invalid"}`,
      );
    }
    throw new GateError("POLICY_INVALID", `${source}: field '${field}': ${issue?.message ?? "invalid"}`);
  }
  const body = (match[2] ?? "").trim();
  if (body.length === 0) throw new GateError("POLICY_INVALID", `${source}: the policy has no prose`);
  const policy: Policy = { ...parsed.data, text: body, source };
  if (parsed.data.rules.length > 0) policy.ruleLines = front.ruleLines;
  return policy;
}

/**
 * The front matter without its top-level `rules:` block (from `rules:` at column 0 to the next
 * key at column 0): a reader of the prose and the metadata need not parse 20,000 rules.
 */
function withoutRules(match: RegExpExecArray): RegExpExecArray {
  const lines = (match[1] ?? "").split("\n");
  const kept: string[] = [];
  let inRules = false;
  for (const line of lines) {
    if (/^rules\s*:/.test(line)) inRules = true;
    else if (/^[^\s#-]/.test(line)) inRules = false;
    if (!inRules) kept.push(line);
  }
  const out = [...match] as unknown as RegExpExecArray;
  out[1] = kept.join("\n");
  return out;
}

/**
 * Loads every `*.md` policy in a directory (a symbolic link is followed: the folder is the
 * operator's), sorted by id. Fails on a malformed file, a duplicate id, or a file it would not
 * read (`X.MD`, a sub-folder), naming it.
 *
 * @example loadPolicies(BUNDLED_POLICIES_DIR).map((p) => p.id) // ["DATA-01", ..., "SEC-05"]
 */
export function loadPolicies(dir: string): Policy[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw new GateError("POLICY_INVALID", `cannot read the policy directory ${dir}`, { cause: error });
  }
  // A file meant as a policy but not read is named, never skipped silently: the start stops.
  for (const e of entries) {
    const why = e.isDirectory()
      ? "is a sub-folder: only the folder's own *.md files are read; move its policies up"
      : !e.name.endsWith(".md") && e.name.toLowerCase().endsWith(".md")
        ? "is not read: a policy file's extension is .md, in lower case; rename it"
        : undefined;
    if (why) throw new GateError("POLICY_INVALID", `${path.join(dir, e.name)} ${why}`);
  }
  const names = entries.map((e) => e.name).filter((n) => n.endsWith(".md") && n.toLowerCase() !== "readme.md");
  const policies = names.map((n) => {
    const file = path.join(dir, n);
    return parsePolicyFile(file, fs.readFileSync(file, "utf8"));
  });
  const seen = new Map<string, string>();
  for (const p of policies) {
    const other = seen.get(p.id);
    if (other) throw new GateError("POLICY_INVALID", `${p.source}: policy id ${p.id} is also used by ${other}`);
    seen.set(p.id, p.source);
  }
  if (policies.length === 0) throw new GateError("POLICY_INVALID", `no policy files (*.md) in ${dir}`);
  // Ids are capitals, digits and a hyphen (PolicyMetaSchema): code-unit order is localeCompare's
  // order for them, without the ICU collator a first localeCompare builds.
  return policies.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The policies of files kept as text (a repository's own, kept with its review's configuration);
 * with `{ rules: false }` their ast-grep rules are left unread (`rules` is empty), for readers of
 * the prose, on the thread that answers.
 *
 * @example parsePolicyTexts(config.repoPolicies ?? []).map((p) => p.id) // ["ACME-01"]
 */
export function parsePolicyTexts(
  files: readonly { source: string; text: string }[],
  read: { rules: boolean } = { rules: true },
): Policy[] {
  return files.map((f) => parsePolicyFile(f.source, f.text, read));
}
