import type { ConfigEntry, ConfigFormat } from "./entry.js";
import { uncomment } from "./key-value-line.js";

/**
 * HCL and Terraform (`.tf`, `.tfvars`, `.hcl`): blocks (`variable "db_password" {`), attributes
 * (`default = "..."`, `password = "..."`) and commented-out attributes (`#`, `//`). A path is the
 * blocks' types and labels, then the attribute: a variable's default is
 * `["variable", "db_password", "default"]`. Only quoted strings are literals; `var.x`,
 * `random_password.db.result` and other expressions are references.
 *
 * @example hclFormat.read(['variable "db_password" {', '  default = "hunter22"', "}"])[0]?.path // ["variable", "db_password", "default"]
 */
export const hclFormat: ConfigFormat = {
  id: "terraform",
  matches: (path) => /\.(tf|tfvars|hcl)$/i.test(path),
  read(rows) {
    const out: ConfigEntry[] = [];
    const blocks: string[][] = [];
    /** Each open block's `name = "..."`: an `env { name = "DB_PASSWORD" value = "..." }` pair is named by it. */
    const names: Array<string | undefined> = [];
    let inBlockComment = false;
    rows.forEach((row, index) => {
      let text = row;
      let commented = inBlockComment;
      if (inBlockComment) {
        if (row.includes("*/")) inBlockComment = false;
      } else if (/^\s*\/\*/.test(row) && !row.includes("*/")) {
        inBlockComment = true;
        commented = true;
      }
      const inner = uncomment(row, ["#", "//"]);
      if (inner !== undefined) {
        text = inner;
        commented = true;
      }
      const open = /^\s*([\w-]+)((?:\s+(?:"[^"]*"|[\w-]+))*)\s*(=\s*)?\{\s*(?:#.*|\/\/.*)?$/.exec(text);
      if (open && !commented) {
        const labels = [...(open[2] ?? "").matchAll(/"([^"]*)"|([\w-]+)/g)].map((m) => m[1] ?? m[2] ?? "");
        blocks.push([open[1] ?? "", ...labels]);
        names.push(undefined);
        return;
      }
      if (/^\s*\}/.test(text) && !commented) {
        blocks.pop();
        names.pop();
        return;
      }
      // `password = "..."`, also inside a one-line block: `credentials { password = "..." }`.
      for (const m of text.matchAll(/(?:^|[{\s,])([\w-]+)\s*=\s*"((?:[^"\\]|\\.)*)"/g)) {
        const attr = m[1] ?? "";
        const value = m[2] ?? "";
        if (attr === "name" && !commented) names[names.length - 1] = value;
        const name = names[names.length - 1];
        const path = attr === "value" && name !== undefined ? [...blocks.flat(), name] : [...blocks.flat(), attr];
        // A data source's arguments look something up (`secret_id = "db-creds"`): they set no credential.
        if (blocks[0]?.[0] === "data") continue;
        out.push({ row: index, path, value, commented, quoted: true });
      }
    });
    return out;
  },
};
