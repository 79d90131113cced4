import { describe, expect, it } from "vitest";
import type { Finding } from "../../../src/domain/finding.js";
import { mentionsRetention, piiStorageDetector } from "../../../src/detectors/data/pii-storage.js";
import { addedFilePatch, buildPr, detectContext, type FileSpec } from "../pr-builder.js";

async function detect(files: FileSpec[]): Promise<Finding[]> {
  return piiStorageDetector.detect(detectContext(buildPr({ files })));
}

function file(filename: string, lines: string[]): FileSpec {
  return { filename, patch: addedFilePatch(lines) };
}

/** The fields DATA-02 names, as "field@line". */
async function flagged(files: FileSpec[]): Promise<string[]> {
  return (await detect(files)).map((f) => `${/field (\w+)/.exec(f.message)?.[1]}@${f.line}`);
}

describe("piiStorageDetector: new personal-data fields without a retention path", () => {
  it("flags SQL columns added by ALTER TABLE and CREATE TABLE", async () => {
    const sql = file("db/migrations/002_contacts.sql", [
      "ALTER TABLE customers ADD COLUMN phone_number VARCHAR(32), ADD COLUMN birth_date DATE;",
      "CREATE TABLE contacts (",
      "  id BIGSERIAL PRIMARY KEY,",
      "  email TEXT NOT NULL,",
      '  "home_address" TEXT,',
      "  created_at TIMESTAMPTZ NOT NULL DEFAULT now()",
      ");",
    ]);
    expect(await flagged([sql])).toEqual(["phone_number@1", "birth_date@1", "email@4", "home_address@5"]);
    const [first] = await detect([sql]);
    expect(first).toMatchObject({
      policy: "DATA-02",
      specialty: "data",
      severity: "medium",
      blocking: false,
      source: "detector",
      detector: "pii-storage",
      file: "db/migrations/002_contacts.sql",
    });
    expect(first?.message).toMatch(/phone_number \(phone\).*no retention or deletion path/);
  });

  it.each([
    ["prisma/schema.prisma", ["model User {", "  id    Int    @id", "  email String @unique", "}"], "email@3"],
    ["app/models.py", ["class Patient(models.Model):", "    date_of_birth = models.DateField()"], "date_of_birth@2"],
    ["app/db.py", ["    ssn: Mapped[str] = mapped_column(String(11))"], "ssn@1"],
    [
      "alembic/versions/1_add.py",
      ['    op.add_column("users", sa.Column("mobile_number", sa.String()))'],
      "mobile_number@1",
    ],
    ["db/knex/003.js", ['  table.string("lastName");'], "lastName@1"],
    ["db/migrate/004_add.rb", ["    add_column :users, :phone, :string"], "phone@1"],
    ["src/models/user.ts", ["  @Column()", "  firstName!: string;"], "firstName@2"],
    ["src/models/user.ts", ["  @Column({ nullable: true }) passportNumber?: string;"], "passportNumber@1"],
    ["src/models/lead.js", ["  email: { type: DataTypes.STRING, allowNull: false },"], "email@1"],
    ["src/api/signup-schema.ts", ["  phoneNumber: z.string().min(7),"], "phoneNumber@1"],
    ["src/web/Form.tsx", ['<input name="postcode" />'], "postcode@1"],
  ])("flags %s", async (filename, lines, expected) => {
    expect(await flagged([file(filename, lines)])).toEqual([expected]);
  });
});

describe("piiStorageDetector: no finding", () => {
  it.each([
    [
      "db/001.sql",
      [
        "ALTER TABLE orders ADD COLUMN total_cents BIGINT;",
        "ALTER TABLE orders ADD CONSTRAINT fk FOREIGN KEY (customer_id) REFERENCES customers(id);",
      ],
    ],
    [
      "db/002.sql",
      ["CREATE TABLE sessions_log (", "  user_id BIGINT,", "  email_verified BOOLEAN,", "  ip_address INET", ");"],
    ],
    ["src/types.ts", ["export interface User {", "  email: string;", "}"]],
    ["src/send.ts", ["await mailer.send({ to: user.email });"]],
  ])("%s without personal-data storage", async (filename, lines) => {
    expect(await detect([file(filename, lines)])).toEqual([]);
  });

  it("stays quiet when the same PR adds a retention or deletion path", async () => {
    const sql = file("db/003.sql", ["ALTER TABLE customers ADD COLUMN phone_number TEXT;"]);
    expect(await detect([sql])).toHaveLength(1);
    const purge = file("src/jobs/purge-contacts.ts", ["export async function purgeStaleContacts() {}"]);
    expect(await detect([sql, purge])).toEqual([]);
    const ttl = file("db/004.sql", ["ALTER TABLE customers ADD COLUMN phone_expires_at TIMESTAMPTZ;"]);
    expect(await detect([sql, ttl])).toEqual([]);
  });

  it("does not take a foreign key's ON DELETE for a deletion path", async () => {
    const sql = file("db/005.sql", [
      "CREATE TABLE addresses (",
      "  customer_id BIGINT REFERENCES customers(id) ON DELETE CASCADE,",
      "  street_address TEXT",
      ");",
    ]);
    expect(await flagged([sql])).toEqual(["street_address@3"]);
  });

  it("skips test files and documentation", async () => {
    const lines = ["ALTER TABLE users ADD COLUMN email TEXT;"];
    expect(await detect([file("test/fixtures/schema.sql", lines), file("docs/schema.md", lines)])).toEqual([]);
  });
});

describe("mentionsRetention", () => {
  it.each([
    ["-- retention: 90 days", true],
    ["await deleteCustomerData(id)", true],
    ["anonymise_customer(row)", true],
    ["expiresAt: Date", true],
    ["ttl: 3600", true],
    ["REFERENCES users(id) ON DELETE CASCADE", false],
    ["deleted_at TIMESTAMPTZ", false],
    ["phone_number TEXT", false],
  ])("%s → %s", (text, expected) => {
    expect(mentionsRetention(text)).toBe(expected);
  });
});
