import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PACKAGE_ROOT } from "../src/package-paths.js";
import { SETTING_NAMES } from "../src/settings/index.js";

// No container runs here (base images cannot be pulled on these machines): these tests hold the
// Dockerfile and compose.yaml to the package and its settings; scripts/pack-install-check.ts
// (a step of .ci/run) runs what the image runs, installed the way the image installs it.

const read = (file: string) => fs.readFileSync(path.join(PACKAGE_ROOT, file), "utf8");
const pkg = JSON.parse(read("package.json")) as { name: string; files: string[]; scripts: Record<string, string> };

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
const instructions = read("Dockerfile")
  .replace(/\\\n/g, " ")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l !== "" && !l.startsWith("#"));
const stages: string[][] = [];
for (const line of instructions) {
  if (line.startsWith("FROM ")) stages.push([]);
  stages.at(-1)?.push(line);
}
const [build = [], runtime = []] = stages;
const of = (stage: string[], word: string) =>
  stage.filter((l) => l.startsWith(`${word} `)).map((l) => l.slice(word.length + 1));

/** `ENV A=1 B=2` → { A: "1", B: "2" }. */
function envOf(stage: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of of(stage, "ENV")) for (const m of line.matchAll(/([A-Z_]+)=(\S+)/g)) env[m[1] ?? ""] = m[2] ?? "";
  return env;
}

describe("Dockerfile", () => {
  it("builds in one stage and runs in another, on the same Node 22 LTS glibc base", () => {
    expect(stages).toHaveLength(2);
    const arg = instructions.find((l) => l.startsWith("ARG NODE_IMAGE="));
    expect(arg).toBe("ARG NODE_IMAGE=node:22-bookworm-slim");
    expect(of(build, "FROM")).toEqual(["${NODE_IMAGE} AS build"]);
    expect(of(runtime, "FROM")).toEqual(["${NODE_IMAGE} AS runtime"]);
    const buildRuns = of(build, "RUN").join("\n");
    expect(buildRuns).toMatch(/\bnpm ci\b/);
    expect(buildRuns).toMatch(/\bnpm run build\b/);
    expect(buildRuns).toMatch(/\bnpm pack\b[\s\S]*npm install --omit=dev\b/);
    // The runtime stage installs nothing: it copies the production install of the build stage.
    expect(of(runtime, "RUN").join("\n")).not.toMatch(/\bnpm\b|apt-get/);
    expect(of(runtime, "COPY")).toEqual(["--from=build /opt/gate /opt/gate"]);
  });

  it("runs the server as `npm start` does, as a user that is not root, data under one volume", () => {
    expect(pkg.scripts.start).toBe("node dist/main.js");
    expect(pkg.files).toContain("dist");
    expect(of(runtime, "CMD")).toEqual([`["node", "/opt/gate/node_modules/${pkg.name}/dist/main.js"]`]);
    const user = of(runtime, "USER");
    expect(user).toEqual(["node"]);
    const env = envOf(runtime);
    const volumes = of(runtime, "VOLUME");
    expect(volumes).toEqual(["/data"]);
    expect(env.GATE_DATA_DIR).toBe("/data");
    expect(path.posix.dirname(env.GATE_DB ?? "")).toBe("/data");
    for (const name of Object.keys(env).filter((n) => n.startsWith("GATE_") || n === "PORT")) {
      expect(SETTING_NAMES, `Dockerfile ENV ${name}`).toContain(name);
    }
  });

  it("checks health on /healthz at the port the server listens on", () => {
    const check = of(runtime, "HEALTHCHECK").join(" ");
    expect(check).toContain("/healthz");
    expect(check).toContain("process.env.PORT || 3000");
    expect(envOf(runtime).PORT).toBe("3000");
    expect(of(runtime, "EXPOSE")).toEqual(["3000"]);
  });

  it(".dockerignore keeps local state, builds and dependencies out of the build context", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#"));
    for (const entry of [".git", "node_modules", "dist", ".gate", "*.pem", ".env"]) expect(ignored).toContain(entry);
    for (const kept of ["src", "package.json", "package-lock.json", "policies", "fixtures", "config", "scripts"]) {
      expect(ignored).not.toContain(kept);
    }
  });
});

describe("compose.yaml", () => {
  const Service = z.object({
    image: z.string().optional(),
    environment: z.record(z.string(), z.string()).optional(),
    env_file: z.string().optional(),
    volumes: z.array(z.string()).optional(),
    ports: z.array(z.string()).optional(),
    depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
  });
  const compose = z
    .object({ services: z.record(z.string(), Service), volumes: z.record(z.string(), z.null()) })
    .parse(YAML.parse(read("compose.yaml"), { merge: true }));
  const gates = Object.entries(compose.services).filter(([name]) => name.startsWith("gate-"));

  it("runs two replicas of the image on one PostgreSQL 15 database", () => {
    expect(compose.services.db?.image).toBe("postgres:15");
    expect(gates).toHaveLength(2);
    const ids = gates.map(([, s]) => s.environment?.GATE_REPLICA_ID);
    expect(new Set(ids).size).toBe(2);
    for (const [name, s] of gates) {
      expect(s.environment?.GATE_DATABASE_URL, name).toMatch(
        /^postgres:\/\/gate:\$\{POSTGRES_PASSWORD\}@db:5432\/gate$/,
      );
      expect(s.depends_on?.db?.condition).toBe("service_healthy");
      for (const key of Object.keys(s.environment ?? {})) expect(SETTING_NAMES, `${name}: ${key}`).toContain(key);
    }
  });

  it("gives each replica its own snapshot cache and host port", () => {
    const volumes = gates.map(([, s]) => s.volumes?.[0] ?? "");
    expect(volumes.every((v) => v.endsWith(":/data"))).toBe(true);
    expect(new Set(volumes).size).toBe(2);
    expect(new Set(gates.map(([, s]) => s.ports?.[0])).size).toBe(2);
    for (const v of volumes) expect(Object.keys(compose.volumes)).toContain(v.split(":")[0]);
  });

  it("reads the rest from gate.env, whose example names only real settings", () => {
    for (const [, s] of gates) expect(s.env_file).toBe("gate.env");
    const keys = read("gate.env.example")
      .split("\n")
      .filter((l) => /^[A-Z]/.test(l))
      .map((l) => l.split("=")[0] ?? "");
    expect(keys.length).toBeGreaterThan(4);
    for (const key of keys) expect(SETTING_NAMES, `gate.env.example: ${key}`).toContain(key);
  });
});
