/**
 * What the container image relies on, checked without a container: the package as `npm pack` makes
 * it, installed from its tarball into an empty prefix with production dependencies only
 * (`npm install --omit=dev`, as the Dockerfile's build stage does), runs `gate demo`, and its server
 * (`node dist/main.js`, the image's CMD) answers 200 on `/healthz` and a signed GitHub ping.
 *
 * Needs the npm registry (the dependencies are installed from it; `--prefer-offline` takes what
 * npm's cache holds) and, where no prebuilt better-sqlite3 fits, a C++ toolchain: it takes minutes,
 * so `.ci/run` runs it as a step of its own, not `npm test`. SQLite in a temp folder, no Slack; the
 * GitHub API is a loopback fake, so nothing else reaches the network.
 *
 * Usage: node --import tsx scripts/pack-install-check.ts [--keep] [--prefix DIR]   (exit 0 when every check passes)
 *   --keep        leave the temp folder (its path is printed) to look into, or to reuse
 *   --prefix DIR  install into DIR, a prefix a kept run left: its dependencies are already there and
 *                 built, so only the package is replaced (after a rebuild, without compiling again)
 */
import { execFile, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const keep = process.argv.includes("--keep");
const reuse = ((i) => (i >= 0 ? process.argv[i + 1] : undefined))(process.argv.indexOf("--prefix"));
const started = Date.now();
const work = fs.mkdtempSync(path.join(os.tmpdir(), "gate-pack-"));

function step(message: string): void {
  process.stderr.write(`[pack-install ${((Date.now() - started) / 1000).toFixed(1)}s] ${message}\n`);
}

function fail(message: string): never {
  throw new Error(message);
}

/** Runs a command, failing with its output when it exits non-zero. */
async function sh(file: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }) {
  try {
    return await run(file, args, { ...opts, maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    fail(`${file} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

/** The smallest GitHub API the server may ask at start: who the token is, which installations the App has. */
function fakeGitHub(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/user") res.end(JSON.stringify({ login: "gate-bot", id: 1, type: "Bot" }));
    else if (req.url?.startsWith("/app/installations")) res.end("[]");
    else {
      res.statusCode = 404;
      res.end(JSON.stringify({ message: "Not Found" }));
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Starts the installed server; resolves with its port once it logs "gate listening". */
function startServer(main: string, env: NodeJS.ProcessEnv, cwd: string) {
  const child = spawn(process.execPath, [main], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "gate listening" within 60 s:\n${output}`)), 60_000);
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      output += `${line}\n`;
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === "gate listening" && typeof entry.port === "number") {
          clearTimeout(timer);
          resolve(entry.port);
        }
      } catch {
        // not a log line
      }
    });
  });
  return { child, port, exited };
}

async function main(): Promise<void> {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    allowScripts?: Record<string, boolean>;
  };
  if (!fs.existsSync(path.join(ROOT, "dist/main.js"))) fail("dist/ is not built: run `npm run build` first");

  // 1. The tarball, as `npm publish` would make it (dist/ as built; `prepare` is not run again).
  step(`npm pack ${pkg.name}@${pkg.version}`);
  const packDir = path.join(work, "pack");
  fs.mkdirSync(packDir);
  const packed = await sh("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", packDir], { cwd: ROOT });
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  if (!info) fail("npm pack printed no file");
  const tarball = path.join(packDir, info.filename);
  const shipped = new Set(info.files.map((f) => f.path));
  for (const needed of [
    "dist/main.js",
    "dist/cli/gate.cjs",
    "policies/SEC-01.md",
    "config/gate.default.yml",
    "manifest.yml",
    "app.yml",
    "CHANGELOG.md",
  ]) {
    if (![...shipped].some((p) => p === needed || p.startsWith(needed))) fail(`the tarball lacks ${needed}`);
  }

  // 2. Installed into an empty prefix, production dependencies only.
  // Its package.json carries the package's own allowScripts, as the Dockerfile writes it.
  const prefix = reuse ? path.resolve(reuse) : path.join(work, "prefix");
  if (reuse && !fs.existsSync(path.join(prefix, "node_modules"))) fail(`--prefix ${reuse} holds no node_modules`);
  fs.mkdirSync(prefix, { recursive: true });
  // The package itself is denied too: its `prepare` builds from sources the tarball does not hold
  // (a tarball's scripts are matched by `file:<its path>`, not by its name).
  fs.writeFileSync(
    path.join(prefix, "package.json"),
    JSON.stringify({
      name: "gate-pack-check",
      private: true,
      allowScripts: { ...pkg.allowScripts, [`file:${tarball}`]: false },
    }),
  );
  step(`npm install --omit=dev ${info.filename} into ${reuse ? `the kept prefix ${prefix}` : "an empty prefix"}`);
  const install = await sh(
    "npm",
    ["install", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", "--prefix", prefix, tarball],
    { cwd: prefix },
  );
  // The package's allowScripts decides every install script of its production tree.
  if (/not yet covered by allowScripts/.test(install.stderr)) fail(`npm warned of install scripts:\n${install.stderr}`);
  const installed = path.join(prefix, "node_modules", pkg.name);
  const dev = ["vitest", "typescript", "@biomejs/biome", "tsx", "esbuild"].filter((d) =>
    fs.existsSync(path.join(prefix, "node_modules", d)),
  );
  if (dev.length > 0) fail(`development dependencies were installed: ${dev.join(", ")}`);

  // 3. `gate demo` from a directory that is not the package, on a SQLite file in a temp folder.
  const elsewhere = path.join(work, "elsewhere");
  fs.mkdirSync(elsewhere);
  const bin = path.join(prefix, "node_modules", ".bin", "gate");
  const base = { PATH: process.env.PATH ?? "", HOME: work, TZ: "UTC" };
  step("gate demo");
  const demo = await sh(bin, ["demo"], {
    cwd: elsewhere,
    env: { ...base, GATE_DB: path.join(work, "demo", "gate.db"), GATE_LOG_LEVEL: "silent" },
  });
  for (const expected of ["001_readme_typo", "auto-approved", "002_new_dependency", "LIC-02", "SEC-07"]) {
    if (!demo.stdout.includes(expected)) fail(`gate demo printed no "${expected}":\n${demo.stdout}`);
  }
  if (!fs.existsSync(path.join(work, "demo", "gate.db"))) fail("gate demo wrote no GATE_DB");

  // 4. The server, as the image's CMD starts it: GitHub by a token (a loopback fake), no Slack.
  const github = await fakeGitHub();
  const secret = "pack-install-secret";
  const dataDir = path.join(work, "data");
  const server = startServer(
    path.join(installed, "dist", "main.js"),
    {
      ...base,
      PORT: "0",
      GATE_SLACK: "off",
      GITHUB_WEBHOOK_SECRET: secret,
      GITHUB_TOKEN: "ghp_pack_install_check",
      GATE_GITHUB_API_URL: `http://127.0.0.1:${(github.address() as AddressInfo).port}`,
      GATE_DATA_DIR: dataDir,
      GATE_DB: path.join(dataDir, "gate.db"),
      GATE_LOG_LEVEL: "info",
    },
    elsewhere,
  );
  try {
    const port = await server.port;
    step(`server listening on ${port}`);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    if (health.status !== 200) fail(`GET /healthz answered ${health.status}`);
    const body = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });
    const ping = await fetch(`http://127.0.0.1:${port}/github/webhook`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "ping",
        "x-github-delivery": "pack-install-ping",
        "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
      },
      body,
    });
    if (ping.status !== 200) fail(`a signed ping answered ${ping.status}: ${await ping.text()}`);
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
    if (metrics.status !== 200) fail(`GET /metrics answered ${metrics.status}`);
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    github.close();
  }
  if (!fs.existsSync(path.join(dataDir, "gate.db"))) fail("the server wrote no database under GATE_DATA_DIR");
  step("ok: packed, installed with --omit=dev, demo ran, /healthz answered 200");
}

try {
  await main();
} catch (error) {
  process.stderr.write(`pack-install check FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  if (keep) process.stderr.write(`kept ${work}\n`);
  else fs.rmSync(work, { recursive: true, force: true });
}
