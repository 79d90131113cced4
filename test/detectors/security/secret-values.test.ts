import { describe, expect, it } from "vitest";
import { MAY_NAME_SECRET, SECRET_VOCABULARY, secretKeyKind } from "../../../src/detectors/security/secret-names.js";
import { notASecret } from "../../../src/detectors/security/secret-values.js";
import { credentialsInValue, mayHoldValueCredential } from "../../../src/detectors/security/value-credentials.js";

describe("secretKeyKind: which keys name a secret", () => {
  it.each([
    ["spring.datasource.password", "password"],
    ["MONGO_INITDB_ROOT_PASSWORD", "password"],
    ["admin_passwd", "password"],
    ["dbPwd", "password"],
    ["ClientSecret", "token"],
    ["pactbroker.token", "token"],
    ["api-key", "token"],
    ["AccountKey", "token"],
    ["secret_id", "token"],
    ["TG_API_HASH", "token"],
    ["CTF_KEY", "key"],
    ["key", "key"],
  ] as const)("%s names a %s", (key, kind) => {
    expect(secretKeyKind(key)).toBe(kind);
  });

  it.each([
    "password.min.length",
    "token_ttl",
    "password_reset_url",
    "secretName",
    "api_key_header",
    "passwordEncoder",
    "existingSecret",
    "MAILU_PASSWORD_SCHEME",
    "username",
    "keyId",
    "region",
    // A connection string is a credential only when it holds one: `credentialsInValue` reads inside it.
    "ConnectionString",
    "GRAYLOG_SHA256_PASSWORD",
    "envFromSecret",
  ])("%s names no secret", (key) => {
    expect(secretKeyKind(key)).toBeUndefined();
  });
});

describe("notASecret: the rule that says a value is not a secret", () => {
  it.each([
    ["", "empty"],
    ["${DB_PASSWORD}", "placeholder"],
    ["${DB_PASSWORD:-dev-only}", "placeholder"],
    ["{{ .Values.db.password }}", "placeholder"],
    ["<your-api-key>", "placeholder"],
    ["%DB_PASSWORD%", "placeholder"],
    ["changeme", "placeholder"],
    ["****", "placeholder"],
    ["xxxxxxxx", "placeholder"],
    ["your_secret_key_1234", "placeholder"],
    ["@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/db/)", "secret-store"],
    ["arn:aws:secretsmanager:eu-west-1:123456789012:secret:db", "secret-store"],
    ["vault:secret/data/db#password", "secret-store"],
    ["{COQLCE6DU6GtcS5P=}", "encrypted"],
    ["ENC(bG9yZW0gaXBzdW0=)", "encrypted"],
    ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "vendor-example"],
    ["AKIAIOSFODNN7EXAMPLE", "vendor-example"],
    ["password", "dummy"],
    ["test", "dummy"],
    ["DB_PASSWORD", "names-a-secret"],
    ["/run/secrets/db_password", "reference"],
    ["secrets/db.pem", "reference"],
    ["Enter your password", "placeholder"],
  ] as const)("%j: %s", (value, rule) => {
    expect(notASecret(value, "password", { key: "password" })).toBe(rule);
  });

  it("a password equal to its user, or to a word of its own key, is a default, not a secret", () => {
    expect(notASecret("postgres", "password", { key: "POSTGRES_PASSWORD" })).toBe("same-as-user");
    expect(notASecret("app", "password", { key: "password", users: ["app"] })).toBe("same-as-user");
  });

  it("weak and sample-app passwords are secrets; so are tokens that look random", () => {
    for (const v of [
      "123456",
      "admin123",
      "Pass@word1",
      "hosting",
      "UberSecretPassword",
      "root_pass",
      "mmuser_password",
    ]) {
      expect(notASecret(v, "password", { key: "password" }), v).toBeUndefined();
    }
    expect(notASecret("Zq8xW2e9RtY7uI3oP1aS", "token", { key: "token" })).toBeUndefined();
    expect(notASecret("bearer", "token", { key: "token" })).toBe("not-a-credential");
  });
});

describe("credentialsInValue: credentials inside a value, in any file", () => {
  it("finds the password of a connection string, a URL, a Basic header, a call and a pipe", () => {
    const found = (text: string) => credentialsInValue(text).map((c) => [c.rule, c.value]);
    expect(found("Server=db;User Id=app;Password='Wq7#rT2v';")).toEqual([["connection-string", "Wq7#rT2v"]]);
    expect(found("DefaultEndpointsProtocol=https;AccountName=a;AccountKey=q8Zx1b2c3d4e==;")).toEqual([
      ["connection-string", "q8Zx1b2c3d4e=="],
    ]);
    expect(found("DATABASE_URL=postgres://reporting:Rp4!xQ9v@db:5432/r")).toEqual([["url-credentials", "Rp4!xQ9v"]]);
    const basic = Buffer.from("deploy:Zt9!kQ2w").toString("base64");
    expect(found(`curl -H "Authorization: Basic ${basic}" https://x`)).toEqual([["authorization-header", basic]]);
    expect(found('DriverManager.getConnection(url, "app", "java1234")')).toEqual([["password-argument", "java1234"]]);
    expect(found('passwordEncoder.encode("admin123")')).toEqual([["password-argument", "admin123"]]);
    expect(found('echo "6208Rr" | docker login -u me --password-stdin')).toEqual([["piped-password", "6208Rr"]]);
  });

  it("leaves placeholders, defaults and encodings alone", () => {
    for (const text of [
      "Server=db;User Id=app;Password=${DB_PASSWORD};",
      "Server=db;Integrated Security=true;",
      "postgres://user:password@localhost:5432/app",
      "postgres://postgres:postgres@localhost/app",
      "mongodb+srv://app:<password>@cluster0.example.net",
      "https://${USER}:${TOKEN}@github.com/acme/x",
      'return hashlib.sha256(password.encode("utf-8"))',
      "Authorization: Bearer ${TOKEN}",
    ]) {
      expect(credentialsInValue(text), text).toEqual([]);
    }
  });
});

describe("MAY_NAME_SECRET: the pre-check's cue", () => {
  it("covers every secret word and pair the judge knows (a word it misses would be a pre-check that skips a finding)", () => {
    expect(SECRET_VOCABULARY.length).toBeGreaterThan(30);
    for (const word of SECRET_VOCABULARY) expect(MAY_NAME_SECRET.test(word), word).toBe(true);
  });
});

describe("the rules learned on real commits", () => {
  it("Microsoft's documented SQL Server sample password is an example; a value made of 'your' and secret words is a placeholder; an instruction-like literal is not", () => {
    expect(notASecret("yourStrong(!)Password", "password", { key: "SA_PASSWORD" })).toBe("vendor-example");
    expect(notASecret("yourpassword", "password", { key: "password" })).toBe("dummy");
    expect(notASecret("YourPwdShouldBeLongAndSecure!", "password", { key: "password" })).toBeUndefined();
  });

  it("flags about a secret name none; a backquoted command is no literal", () => {
    expect(secretKeyKind("isRootUserPasswordEmpty")).toBeUndefined();
    expect(notASecret("`awk '{print $1}' $FILE`", "password", { key: "PASS" })).toBe("placeholder");
  });
});

describe("mayHoldValueCredential: the line pre-check of credentialsInValue", () => {
  it("passes every line a rule finds something in, and spares plain code", () => {
    const basic = Buffer.from("deploy:Zt9!kQ2w").toString("base64");
    const lines = [
      "Server=db;User Id=app;Password='Wq7#rT2v';",
      "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=q8Zx1b2c3d4e==;",
      "postgres://reporting:Rp4!xQ9v@db:5432/r",
      `curl -H "Authorization: Basic ${basic}" https://x`,
      'DriverManager.getConnection(url, "app", "java1234")',
      'smtp.login("me@x.org", "Sm7p!pw9")',
      'requests.get(url, auth=("me", "Rq8!pw7x"))',
      'new NetworkCredential("me", "Nc6!pw5z")',
      'encoder.encode("admin123")',
      'echo "6208Rr" | docker login -u me --password-stdin',
      "echo 'root:R]E7FxHK' | chpasswd",
      'Geocode.setApiKey("Zk93hQ0pLmX2vB7nR4tY")',
      'const k = "AIzaSyAHoOsaxhFYc2fQlGdr-5Mdep3UVkfpfP4";',
      'dsn := "app:Abc123456.@tcp(localhost:3306)/"',
      "docker run -e SA_PASSWORD=Foir100# img",
      "java -Dkeystore.password=mp6yc0UD9e -jar app.jar",
    ];
    for (const line of lines) {
      expect(credentialsInValue(line).length, line).toBeGreaterThan(0);
      expect(mayHoldValueCredential(line), line).toBe(true);
    }
    expect(mayHoldValueCredential("const total = order.total * rate;")).toBe(false);
  });
});
