import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startGateServer } from "../../src/server/start.js";
import { silentLog, tempDir } from "../helpers/gate.js";

const dir = tempDir("gate-config-start-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the server and its configuration file", () => {
  it("refuses to start on an invalid GATE_CONFIG, naming the file, line and key; nothing is listening", async () => {
    const file = path.join(dir, "gate.yml");
    fs.writeFileSync(file, "version: 1\nexceptions:\n  - { policy: LIC-02, package: x, reason: ok then }\n");
    const start = startGateServer(
      {
        GITHUB_WEBHOOK_SECRET: "s",
        GITHUB_TOKEN: "t",
        GATE_SLACK: "off",
        PORT: "0",
        GATE_DB: path.join(dir, "gate.db"),
        GATE_DATA_DIR: dir,
        GATE_CONFIG: file,
      },
      { log: silentLog },
    );
    await expect(start).rejects.toMatchObject({ code: "CONFIG_FILE_INVALID" });
    await expect(start).rejects.toThrow(`${file}:3:5: exceptions.0.granted_by`);
  });
});
