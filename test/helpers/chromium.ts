import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's Chromium, which the browser tests drive (Playwright's own download cannot reach its host here). */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Installs Debian's Chromium when it is missing (`apt-get install -y chromium`, as root: this
 * machine and CI run as root with apt). Throws saying what to do when it cannot.
 */
export function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's Chromium (sudo apt-get install -y chromium) and run again`,
    );
  }
  const apt = (...args: string[]) =>
    execFileSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  try {
    apt("install", "-y", "--no-install-recommends", "chromium");
  } catch {
    // A fresh machine's package lists may be missing or stale.
    apt("update");
    apt("install", "-y", "--no-install-recommends", "chromium");
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`apt-get install chromium did not give ${CHROMIUM}`);
}

/**
 * A headless Chromium with a fresh profile, and no network of its own (without the
 * background-networking flags its connections are refused on a closed network). Close it after.
 */
export async function launchChromium(): Promise<BrowserContext & { profile: string }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "gate-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const close = context.close.bind(context);
  return Object.assign(context, {
    profile,
    close: async () => {
      await close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  });
}
