import { addedLines } from "../../domain/patch.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import type { Detector } from "../detector.js";
import type { Finding } from "../../domain/finding.js";
import { classifyIdentifier, isPersonalKind, mayNamePersonalData, type PersonalKind } from "./pii-vocabulary.js";
import { isDocPath, isTestPath, looksBinary } from "../security/file-kind.js";
import { precheck } from "../precheck.js";

const SQL_TYPES =
  "varchar|nvarchar|character|char|nchar|text|citext|string|date|datetime|datetime2|timestamp|timestamptz|time|" +
  "int|integer|bigint|smallint|serial|bigserial|uuid|boolean|bool|numeric|decimal|json|jsonb|bytea|blob|float|" +
  "double|real|inet|enum";

/** Field declarations by schema language; group 1 is the field name. */
const SQL_FIELDS: readonly RegExp[] = [
  /\badd\s+(?:column\s+)?(?:if\s+not\s+exists\s+)?[`"[]?(\w+)/i,
  new RegExp(`^\\s*[\`"[]?(\\w+)[\`"\\]]?\\s+(?:${SQL_TYPES})\\b`, "i"),
  /\brename\s+column\s+\w+\s+to\s+[`"[]?(\w+)/i,
];
const PRISMA_FIELDS: readonly RegExp[] = [
  /^\s*(\w+)\s+(?:String|DateTime|Int|BigInt|Float|Decimal|Boolean|Json|Bytes)\b/,
];
const GRAPHQL_FIELDS: readonly RegExp[] = [/^\s*(\w+)\s*(?:\([^)]*\))?\s*:\s*\[?\w+/];
const CODE_FIELDS: readonly RegExp[] = [
  // Django model fields and migrations
  /^\s*(\w+)\s*=\s*models\.\w+\(/,
  /\(\s*["'](\w+)["']\s*,\s*models\.\w+\(/,
  /\bAddField\(.*\bname\s*=\s*["'](\w+)["']/,
  // SQLAlchemy / Alembic
  /^\s*(\w+)\s*(?::\s*Mapped\[[^\]]*\]\s*)?=\s*(?:\w+\.)?(?:Column|mapped_column)\(/,
  /\b(?:sa\.)?Column\(\s*["'](\w+)["']/,
  // Knex, Rails, Sequelize
  /\.(?:string|text|date|datetime|timestamp|integer|bigInteger|uuid|boolean|json|jsonb|specificType|enu|enum|decimal|float)\(\s*["'](\w+)["']/,
  /\bt\.(?:string|text|date|datetime|integer|bigint|boolean|json|jsonb|decimal)\s+:(\w+)/,
  /\badd_column\s+:\w+\s*,\s*:(\w+)/,
  /\baddColumn\(\s*["'][\w.]+["']\s*,\s*["'](\w+)["']/,
  /(?<![\w$])(\w+)\s*:\s*\{\s*type\s*:\s*(?:DataTypes|Sequelize|String\b|Date\b|Number\b|Schema\.Types)/,
  /^\s*(\w+)\s*:\s*(?:DataTypes|Sequelize)\.\w+/,
  // Mongoose shorthand (capitalised constructors, not TypeScript types)
  /^\s*(\w+)\s*:\s*(?:String|Date)\s*,?\s*$/,
  // TypeORM, field on the decorator's line
  /@\w*Column\([^)]*\)\s+(?:(?:public|private|protected|readonly)\s+)*(\w+)[!?]?\s*:/,
  // API and form input: zod schemas, Pydantic EmailStr, HTML inputs
  /(?<![\w$])(\w+)\s*:\s*z\s*\.\s*\w+/,
  /^\s*(\w+)\s*:\s*(?:Optional\[)?EmailStr\b/,
  /<input\b[^>]*\bname\s*=\s*["'{]+(\w+)/i,
];
const TYPEORM_DECORATOR = /^\s*@\w*Column\b[^;]*$/;
const DECORATED_FIELD = /^\s*(?:(?:public|private|protected|readonly)\s+)*(\w+)[!?]?\s*:/;

/** The patterns as `matchAll` needs them (global), compiled once rather than per line. */
const allMatches = (patterns: readonly RegExp[]): readonly RegExp[] =>
  patterns.map((re) => new RegExp(re.source, `${re.flags}g`));
const SQL_ALL = allMatches(SQL_FIELDS);
const PRISMA_ALL = allMatches(PRISMA_FIELDS);
const GRAPHQL_ALL = allMatches(GRAPHQL_FIELDS);
const CODE_ALL = allMatches(CODE_FIELDS);

/** Which field patterns (global) apply to a file, or undefined when it declares no stored fields. */
function fieldPatterns(path: string): readonly RegExp[] | undefined {
  if (/\.sql$/i.test(path)) return SQL_ALL;
  if (/\.prisma$/i.test(path)) return PRISMA_ALL;
  if (/\.(graphql|gql)$/i.test(path)) return GRAPHQL_ALL;
  if (/\.((c|m)?(j|t)sx?|py|rb|vue|svelte|html)$/i.test(path)) return CODE_ALL;
  return undefined;
}

/** Names SQL and schema languages use for non-columns after ADD. */
const NOT_A_FIELD = new Set(["constraint", "primary", "index", "foreign", "unique", "key", "check", "column"]);

/** A field holding personal data that an added line declares. */
export interface StoredField {
  file: string;
  line: number;
  field: string;
  kind: PersonalKind;
}

/**
 * Personal-data fields declared on the added lines of one file: SQL columns, Prisma, Django,
 * SQLAlchemy, Knex, Rails, Sequelize, Mongoose and TypeORM fields, GraphQL fields, zod and
 * HTML form inputs.
 *
 * @example storedPersonalFields(file)[0] // { file: "db/001.sql", line: 3, field: "phone_number", kind: "phone" }
 */
export function storedPersonalFields(file: ChangedFile): StoredField[] {
  const patterns = fieldPatterns(file.filename);
  if (!patterns) return [];
  const out: StoredField[] = [];
  const seen = new Set<string>();
  const add = (field: string, line: number) => {
    if (NOT_A_FIELD.has(field.toLowerCase()) || seen.has(field)) return;
    const kind = classifyIdentifier(field);
    if (!kind || !isPersonalKind(kind)) return;
    seen.add(field);
    out.push({ file: file.filename, line, field, kind });
  };
  const lines = addedLines(file.patch);
  // A field is reported only when its name is personal data, or the line is an email or phone input:
  // the file's added lines are read one by one only if, all together, they could hold either.
  const all = lines.map((l) => l.text).join("\n");
  if (!precheck(mayNamePersonalData(all) || /input/i.test(all))) return [];
  let decorated = false;
  for (const { line, text } of lines) {
    if (decorated) {
      const field = DECORATED_FIELD.exec(text)?.[1];
      if (field) add(field, line);
      decorated = false;
    }
    if (TYPEORM_DECORATOR.test(text) && !/\)\s+\w/.test(text)) decorated = true;
    if (!precheck(mayNamePersonalData(text) || /input/i.test(text))) continue;
    for (const re of patterns) {
      for (const m of text.matchAll(re)) if (m[1]) add(m[1], line);
    }
    if (/<input\b[^>]*\btype\s*=\s*["'](email|tel)["']/i.test(text) && out.every((f) => f.line !== line)) {
      out.push({ file: file.filename, line, field: "input", kind: /email/i.test(text) ? "email" : "phone" });
    }
  }
  return out;
}

/** Words that show the change also handles retention or deletion. */
const RETENTION =
  /\b(retention|retain|retained|ttl|expires at|expire at|expiry|expiration|expires|purge|purged|purging|anonymi[sz]\w*|pseudonymi[sz]\w*|erase|erasure|delete|deletion|forget)\b/;

/**
 * True when an added line mentions retention or deletion (`retention`, `ttl`, `expires_at`,
 * `purgeOldRows`, `anonymize`, `DELETE FROM`...). A foreign key's `ON DELETE` does not count.
 *
 * @example mentionsRetention("expires_at TIMESTAMPTZ NOT NULL") // true
 */
export function mentionsRetention(text: string): boolean {
  const words = text
    .replace(/\bon\s+delete\s+(cascade|set\s+null|set\s+default|restrict|no\s+action)\b/gi, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]/g, " ")
    .toLowerCase();
  return RETENTION.test(words);
}

/** The first added line of the PR that mentions retention or deletion, as "file:line". */
function retentionEvidence(files: readonly ChangedFile[]): string | undefined {
  for (const file of files) {
    if (!file.patch || looksBinary(file.patch)) continue;
    const hit = addedLines(file.patch).find((l) => mentionsRetention(l.text));
    if (hit) return `${file.filename}:${hit.line}`;
  }
  return undefined;
}

/**
 * DATA-02: new collection or storage of personal data (schema columns, model fields, API and form
 * fields named email, phone, date_of_birth, address, ssn, ...) when no added line of the same PR
 * mentions a retention or deletion path. Medium, not blocking. Test files and docs are skipped
 * (a test schema is not production storage); docs still count as evidence of a retention path.
 *
 * @example await piiStorageDetector.detect(ctx) // [{ policy: "DATA-02", line: 2, message: "... phone_number ..." }]
 */
export const piiStorageDetector: Detector = {
  id: "pii-storage",
  policies: ["DATA-02"],
  covers: [],
  reads: (file) => file.patch !== undefined,
  async detect(ctx) {
    const fields = ctx.pr.files
      .filter((f) => f.patch && !isTestPath(f.filename) && !isDocPath(f.filename) && !looksBinary(f.patch))
      .flatMap(storedPersonalFields);
    if (fields.length === 0 || retentionEvidence(ctx.pr.files)) return [];
    return fields.slice(0, 25).map(
      (f): Finding => ({
        specialty: "data",
        policy: "DATA-02",
        severity: "medium",
        blocking: false,
        needs_more_context: false,
        file: f.file,
        line: f.line,
        message:
          `New personal-data field ${f.field} (${f.kind}) is collected or stored, and this change adds no ` +
          "retention or deletion path (no retention period, TTL/expires_at, purge, anonymisation or delete). " +
          "Say how long it is kept and how it is erased.",
        source: "detector",
        detector: "pii-storage",
      }),
    );
  },
};
