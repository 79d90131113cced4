/**
 * The SEC-01 fixtures of fixtures/eval that put a credential in a configuration, infrastructure or
 * test file (one per case of issue "a secret is a secret in any file"): where it is, and the value
 * that must appear in no log, card, check run or model prompt. Shared by the detector, server,
 * CLI and model tests.
 */
export interface ConfigSecretCase {
  fixture: string;
  file: string;
  line: number;
  /** The credential as written in the file. */
  value: string;
  /** The credential decoded, where the file holds it encoded (a Kubernetes Secret's base64 data). */
  decoded?: string;
}

export const CONFIG_SECRET_CASES: readonly ConfigSecretCase[] = [
  {
    fixture: "sec01-cfg-appsettings-connection-string",
    file: "src/Api/appsettings.Production.json",
    line: 3,
    value: "Wq7#rT2vLp9x",
  },
  { fixture: "sec01-cfg-webconfig-connection-string", file: "legacy/Admin/Web.config", line: 4, value: "Zk4!mN8qR2" },
  {
    fixture: "sec01-cfg-test-properties-token",
    file: "src/test/resources/application.properties",
    line: 2,
    value: "Vb3kQ9xL2mW7pR4tZ8nY1c",
  },
  {
    fixture: "sec01-cfg-json-commented-account-key",
    file: "config/storage.json",
    line: 3,
    value: "q8Zx1b2c3d4e5f6g7h8i9j0kLmNoPqRsTuVwXyZaBcDeFgH+Ij==",
  },
  {
    fixture: "sec01-cfg-yaml-commented-account-key",
    file: "config/reports.yml",
    line: 3,
    value: "Hq2Wm9Zx4Lp7Rt1Vn6Bc3Df8Gk5Js0Ya==",
  },
  {
    fixture: "sec01-cfg-terraform-variable-default",
    file: "infra/billing/variables.tf",
    line: 7,
    value: "Tf9!Rv2#Lm7q",
  },
  {
    fixture: "sec01-cfg-k8s-secret-data",
    file: "deploy/staging/db-secret.yaml",
    line: 8,
    value: "Uzl4IXFMMnZSN20=",
    decoded: "S9x!qL2vR7m",
  },
  {
    fixture: "sec01-cfg-k8s-secret-stringdata",
    file: "deploy/exporter/secret.yaml",
    line: 6,
    value: "Jx8vN3qR7tL2wK9mZ4pB",
  },
  { fixture: "sec01-cfg-k8s-deployment-env", file: "deploy/mongo/deployment.yaml", line: 15, value: "M0ngo!Pr0d42" },
  { fixture: "sec01-cfg-compose-password", file: "docker-compose.yml", line: 6, value: "Pg7#wX2kQ9" },
  { fixture: "sec01-cfg-dockerfile-env-token", file: "Dockerfile", line: 3, value: "Rk8vQ2xW9mL4pT7nZ3bY" },
  {
    fixture: "sec01-cfg-spring-application-yml",
    file: "src/main/resources/application.yml",
    line: 5,
    value: "Sp9!ngDb#4x",
  },
  { fixture: "sec01-cfg-ini-password", file: "ops/backup/my.cnf", line: 3, value: "B4ck!Up9Qz" },
  { fixture: "sec01-cfg-toml-password", file: "worker/config.toml", line: 6, value: "T0ml!Wk7pQ" },
  { fixture: "sec01-cfg-database-url", file: "reporting/.env.production", line: 2, value: "Rp4!xQ9vLm" },
];

/** The clean look-alikes of the same formats: placeholders, references, labels, examples. */
export const CONFIG_LOOKALIKES: readonly string[] = [
  "clean-sec01-spring-placeholders",
  "clean-sec01-compose-env-refs",
  "clean-sec01-terraform-sensitive",
  "clean-sec01-external-secret",
  "clean-sec01-docs-aws-example-keys",
  "clean-sec01-properties-labels",
  "clean-sec01-k8s-secret-key-ref",
  "clean-sec01-helm-values-empty",
  "clean-sec01-appsettings-keyvault",
  "clean-sec01-env-example",
];

/** Every form a case's credential may take in text. */
export function formsOf(c: ConfigSecretCase): string[] {
  return c.decoded ? [c.value, c.decoded] : [c.value];
}
