import { describe, expect, it } from "vitest";
import { CONFIG_FORMATS, configFormatOf, readConfig } from "../../src/config-formats/index.js";
import type { ConfigEntry } from "../../src/config-formats/index.js";

/**
 * One contract case per format: a file of that format, the entries it must give (path, value,
 * row, commented), and paths it must and must not claim. Every format in CONFIG_FORMATS needs one.
 */
interface ContractCase {
  paths: string[];
  notPaths: string[];
  text: string;
  /** [path joined with ".", value, 1-based row, commented] of entries that must be among those read. */
  entries: Array<[string, string, number, boolean]>;
  /** A hunk from the middle of the file (no opening structure): the entries it must still give. */
  hunk?: { text: string; entries: Array<[string, string]> };
}

const CASES: Record<string, ContractCase> = {
  json: {
    paths: ["appsettings.Production.json", "config/settings.jsonc", "infra/main.tf.json"],
    notPaths: ["src/app.ts", "README.md"],
    text: [
      "{",
      '  "ConnectionStrings": { "Default": "Server=db;User Id=app;Password=x" },',
      '  // "Storage": "AccountKey=abc",',
      '  "Items": [ { "name": "API_TOKEN", "value": "t0k3n" } ],',
      '  "Port": 8080,',
      "}",
    ].join("\n"),
    entries: [
      ["ConnectionStrings.Default", "Server=db;User Id=app;Password=x", 2, false],
      ["Storage", "AccountKey=abc", 3, true],
      ["Items.API_TOKEN", "t0k3n", 4, false],
      ["Port", "8080", 5, false],
    ],
    hunk: { text: '    "Password": "p4ss",\n    "User": "app"\n  }', entries: [["Password", "p4ss"]] },
  },
  yaml: {
    paths: ["k8s/deploy.yaml", "docker-compose.yml", ".github/workflows/ci.yml", "src/main/resources/application.yml"],
    notPaths: ["values.json"],
    text: [
      "spring:",
      "  datasource:",
      "    password: s3cr3t # the prod one",
      "  # mail-password: m41l",
      "env:",
      "  - name: DB_TOKEN",
      "    value: abc123",
      "  - DB_PASS=from-list",
      "run: |",
      "  export API_KEY=inblock",
      "---",
      "kind: Secret",
      "data:",
      "  token: dG9rZW4=",
      "tagged: !Ref SomeParam",
    ].join("\n"),
    entries: [
      ["spring.datasource.password", "s3cr3t", 3, false],
      ["spring.mail-password", "m41l", 4, true],
      ["env.DB_TOKEN", "abc123", 7, false],
      ["env.DB_PASS", "from-list", 8, false],
      ["run.API_KEY", "inblock", 10, false],
      ["data.token", "dG9rZW4=", 14, false],
    ],
    hunk: { text: "      password: h1dd3n\n      user: app", entries: [["password", "h1dd3n"]] },
  },
  toml: {
    paths: ["config.toml", "settings/app.toml"],
    notPaths: ["config.ini"],
    text: ["[database]", 'password = "t0ml"', '# token = "c0mm3nt"', "[[servers]]", "port = 5432"].join("\n"),
    entries: [
      ["database.password", "t0ml", 2, false],
      ["database.token", "c0mm3nt", 3, true],
      ["servers.port", "5432", 5, false],
    ],
  },
  ini: {
    paths: ["setup.cfg", "my.cnf", "alembic.ini", ".npmrc", "nginx/site.conf"],
    notPaths: ["config.toml"],
    text: ["[client]", "password = 1n1", "; secret: c0mm3nt", "user=app"].join("\n"),
    entries: [
      ["client.password", "1n1", 2, false],
      ["client.secret", "c0mm3nt", 3, true],
      ["client.user", "app", 4, false],
    ],
  },
  properties: {
    paths: ["src/test/resources/application.properties", "gradle.properties"],
    notPaths: ["application.yml"],
    text: [
      "spring.datasource.password=pr0ps",
      "# pactbroker.token=c0mm3nt",
      "! old.key: v",
      "password.min.length=12",
    ].join("\n"),
    entries: [
      ["spring.datasource.password", "pr0ps", 1, false],
      ["pactbroker.token", "c0mm3nt", 2, true],
      ["old.key", "v", 3, true],
      ["password.min.length", "12", 4, false],
    ],
  },
  xml: {
    paths: ["Web.config", "App.config", "settings.xml", "src/main/resources/beans.xml"],
    notPaths: ["api.csproj"],
    text: [
      "<configuration>",
      '  <add name="Db" connectionString="Server=.;Password=x1;" />',
      '  <add key="ApiKey" value="k3y" />',
      '  <!-- <add key="OldKey" value="0ld" /> -->',
      "  <password>&lt;pw&gt;</password>",
      '  <!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><user>&xxe;</user>',
      "</configuration>",
    ].join("\n"),
    entries: [
      ["add.Db.connectionString", "Server=.;Password=x1;", 2, false],
      ["add.ApiKey", "k3y", 3, false],
      ["add.OldKey", "0ld", 4, true],
      ["password", "<pw>", 5, false],
      // An entity is never expanded: the text stays as written.
      ["user", "&xxe;", 6, false],
    ],
  },
  dotenv: {
    paths: [".env", ".env.production", "config/app.env", "scripts/deploy.sh"],
    notPaths: ["env.ts"],
    text: ["DB_PASSWORD=d0tenv", "export API_TOKEN='qu0ted'", "# OLD_SECRET=c0mm3nt", "EMPTY="].join("\n"),
    entries: [
      ["DB_PASSWORD", "d0tenv", 1, false],
      ["API_TOKEN", "qu0ted", 2, false],
      ["OLD_SECRET", "c0mm3nt", 3, true],
      ["EMPTY", "", 4, false],
    ],
  },
  terraform: {
    paths: ["main.tf", "prod.tfvars", "terragrunt.hcl"],
    notPaths: ["main.tf.json"],
    text: [
      'variable "db_password" {',
      "  type    = string",
      '  default = "tf-default"',
      "}",
      'resource "aws_db_instance" "db" {',
      "  password = var.db_password",
      '  # master_password = "c0mm3nt"',
      "}",
    ].join("\n"),
    entries: [
      ["variable.db_password.default", "tf-default", 3, false],
      ["resource.aws_db_instance.db.master_password", "c0mm3nt", 7, true],
    ],
  },
  dockerfile: {
    paths: ["Dockerfile", "build/Dockerfile.prod", "api.dockerfile", "Containerfile"],
    notPaths: ["docker-compose.yml"],
    text: [
      "FROM node:22",
      "ENV NPM_TOKEN=d0ck3r OTHER=1",
      "ENV LEGACY_SECRET legacy value",
      "ARG GH_TOKEN",
      "RUN export API_KEY=ru9 && login --password=fl4g",
      "# ENV OLD_TOKEN=c0mm3nt",
    ].join("\n"),
    entries: [
      ["ENV.NPM_TOKEN", "d0ck3r", 2, false],
      ["ENV.LEGACY_SECRET", "legacy value", 3, false],
      ["RUN.API_KEY", "ru9", 5, false],
      ["RUN.password", "fl4g", 5, false],
      ["ENV.OLD_TOKEN", "c0mm3nt", 6, true],
    ],
  },
  markdown: {
    paths: ["README.md", "docs/setup.markdown", "site/page.mdx"],
    notPaths: ["notes.txt"],
    text: [
      "# Setup",
      "The default admin password is `Adm1n-42`.",
      "| Account | Password |",
      "|---|---|",
      "| admin | **`T4ble!pw`** |",
      "```yaml",
      "db:",
      "  password: bl0ck-pw",
      "```",
      "```",
      "API_TOKEN=untagged",
      "```",
    ].join("\n"),
    entries: [
      ["password", "Adm1n-42", 2, false],
      ["Password", "T4ble!pw", 5, false],
      ["db.password", "bl0ck-pw", 8, false],
      ["API_TOKEN", "untagged", 11, false],
    ],
  },
};

const pick = (e: ConfigEntry) => [e.path.join("."), e.value, e.row + 1, e.commented] as const;

describe("configuration formats: one contract, every format", () => {
  it("every registered format has a contract case, and every case a registered format", () => {
    expect(CONFIG_FORMATS.map((f) => f.id).sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const format of CONFIG_FORMATS) {
    const c = CASES[format.id];
    describe(format.id, () => {
      it("claims its own files and not others", () => {
        for (const p of c?.paths ?? []) expect(configFormatOf(p)?.id, p).toBe(format.id);
        for (const p of c?.notPaths ?? []) expect(configFormatOf(p)?.id, p).not.toBe(format.id);
      });

      it("reads key paths with literal values, commented-out lines included, each on its row", () => {
        const entries = format.read((c?.text ?? "").split("\n")).map(pick);
        for (const want of c?.entries ?? []) expect(entries).toContainEqual(want);
      });

      it("reads a hunk from the middle of a file, and never throws on hostile text", () => {
        if (c?.hunk) {
          const entries = format.read(c.hunk.text.split("\n")).map((e) => [e.path[e.path.length - 1], e.value]);
          for (const want of c.hunk.entries) expect(entries).toContainEqual(want);
        }
        const hostile = ['"{[<!--', "}}}]]]", "a:".repeat(5000), "=".repeat(10000), "\u0000\u0001", "- - - -"];
        expect(() => format.read(hostile)).not.toThrow();
      });
    });
  }

  it("a path that is no configuration format reads as undefined", () => {
    expect(readConfig("src/app.ts", ["const password = 'x';"])).toBeUndefined();
  });
});
