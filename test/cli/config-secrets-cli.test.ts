import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { CONFIG_LOOKALIKES, CONFIG_SECRET_CASES, formsOf } from "../detectors/security/config-secret-cases.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";

const ResultSchema = z.object({
  route: z.string(),
  findings: z.array(z.object({ policy: z.string(), file: z.string().optional(), line: z.number().optional() })),
});
const EvalSchema = z.object({
  per_fixture: z.array(z.object({ fixture: z.string(), route: z.string().nullable(), cited: z.array(z.string()) })),
});

describe("credentials in configuration files, through the CLI", () => {
  it("`gate review` of each case goes to a person citing SEC-01 at its file and line; stdout and stderr hold no value", async () => {
    const dir = tempDir("gate-cli-cfg-");
    const env = { PATH: process.env.PATH ?? "", GATE_DATA_DIR: dir, GATE_LOG_LEVEL: "debug" };
    // Three at a time: each is a process of its own.
    for (let i = 0; i < CONFIG_SECRET_CASES.length; i += 3) {
      await Promise.all(
        CONFIG_SECRET_CASES.slice(i, i + 3).map(async (c, j) => {
          const run = await runGateCli(["review", path.join(BUNDLED_FIXTURES_DIR, "eval", c.fixture), "--json"], {
            env: { ...env, GATE_DB: path.join(dir, `${i + j}.db`) },
            cwd: dir,
          });
          const result = ResultSchema.parse(JSON.parse(run.stdout));
          expect(result.route, c.fixture).toBe("human");
          expect(result.findings, c.fixture).toContainEqual(
            expect.objectContaining({ policy: "SEC-01", file: c.file, line: c.line }),
          );
          for (const form of formsOf(c)) expect(run.stdout + run.stderr, c.fixture).not.toContain(form);
        }),
      );
    }
  }, 180_000);

  it("`gate eval --rules` over the look-alikes: none cites SEC-01", async () => {
    const corpus = tempDir("gate-cli-lookalikes-");
    for (const name of CONFIG_LOOKALIKES) {
      fs.cpSync(path.join(BUNDLED_FIXTURES_DIR, "eval", name), path.join(corpus, name), { recursive: true });
    }
    const run = await runGateCli(["eval", "--rules", "--json", corpus], {
      env: { PATH: process.env.PATH ?? "", GATE_LOG_LEVEL: "silent" },
      cwd: corpus,
    });
    const report = EvalSchema.parse(JSON.parse(run.stdout));
    expect(report.per_fixture).toHaveLength(CONFIG_LOOKALIKES.length);
    for (const f of report.per_fixture) {
      expect(f.cited, f.fixture).not.toContain("SEC-01");
      expect(f.route, f.fixture).not.toBe("human");
    }
  }, 120_000);
});
