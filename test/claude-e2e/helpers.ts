import fs from "node:fs";
import path from "node:path";
import type { Specialty } from "../../src/domain/finding.js";
import type { GateExtras } from "../../src/build-gate.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { afterEach, beforeEach } from "vitest";
import {
  startFakeAnthropic,
  textMessage,
  type FakeAnthropic,
  type RecordedRequest,
  type ScriptedResponse,
} from "../fakes/anthropic-api.js";
import { testGate } from "../helpers/gate.js";

/** Who sent a Messages API request: one of the three specialists, or the investigator. */
export type Caller = Specialty | "investigator";

/** The system prompt's text (the SDK sends it as an array of text blocks). */
export function systemText(request: RecordedRequest): string {
  const system = request.body?.system;
  if (typeof system === "string") return system;
  if (!Array.isArray(system)) return "";
  return system
    .map((b: unknown) =>
      typeof b === "object" && b !== null && "text" in b && typeof b.text === "string" ? b.text : "",
    )
    .join("\n");
}

/** Reads who is asking from the system prompt's first sentence (src/claude/specialist/prompt.ts ROLE). */
export function callerOf(request: RecordedRequest): Caller | undefined {
  const text = systemText(request);
  if (text.startsWith("You are the investigator")) return "investigator";
  const m = /^You are the (security|licensing|data-handling) reviewer/.exec(text);
  if (!m) return undefined;
  return m[1] === "data-handling" ? "data" : (m[1] as Specialty);
}

/** A valid specialist answer with nothing found (no verdicts: none is required). */
export const EMPTY_ANSWER = { findings: [], verdicts: [] };

/**
 * Scripts the fake per caller: each caller's answers are used in order; a caller with none left
 * (or not scripted) gets `fallback` (default: the valid empty answer), the investigator gets a 400.
 *
 * @example routeByCaller(api, { security: [textMessage(INJECTION)] })
 */
export function routeByCaller(
  api: FakeAnthropic,
  script: Partial<Record<Caller, ScriptedResponse[]>>,
  fallback: (caller: Caller | undefined) => ScriptedResponse | undefined = (c) =>
    c === "investigator" || c === undefined ? undefined : textMessage(EMPTY_ANSWER),
): void {
  const queues = new Map<Caller, ScriptedResponse[]>(
    Object.entries(script).map(([k, v]) => [k as Caller, [...(v ?? [])]]),
  );
  api.respondWith((request) => {
    const caller = callerOf(request);
    const next = caller ? queues.get(caller)?.shift() : undefined;
    return next ?? fallback(caller);
  });
}

/** The requests one caller sent. */
export function requestsOf(api: FakeAnthropic, caller: Caller): RecordedRequest[] {
  return api.requests.filter((r) => callerOf(r) === caller);
}

/** A gate with Claude switched on and pointed at the fake (the real SDK over loopback HTTP). */
export async function modelGate(api: FakeAnthropic, env: Record<string, string> = {}, extras: GateExtras = {}) {
  return await testGate({ ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: api.url, ...env }, extras);
}

/** The string values of a bundled fixture's patches, to look for secrets in what was sent. */
export function fixturePatches(name: string): string {
  const files = JSON.parse(fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, name, "files.json"), "utf8")) as Array<{
    patch?: string;
  }>;
  return files.map((f) => f.patch ?? "").join("\n");
}

/**
 * Starts a fake Messages API before each test, and closes it and every gate opened on it after.
 *
 * @example const fake = useFakeAnthropic(); fake.gates.push(await modelGate(fake.api));
 */
export function useFakeAnthropic(): { readonly api: FakeAnthropic; gates: Array<{ close: () => Promise<void> }> } {
  let api: FakeAnthropic | undefined;
  const gates: Array<{ close: () => Promise<void> }> = [];
  beforeEach(async () => {
    api = await startFakeAnthropic();
  });
  afterEach(async () => {
    for (const g of gates.splice(0)) await g.close();
    await api?.close();
  });
  return {
    get api() {
      if (!api) throw new Error("the fake Messages API starts in beforeEach");
      return api;
    },
    gates,
  };
}
