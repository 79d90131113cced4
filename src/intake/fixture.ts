import fs from "node:fs";
import path from "node:path";
import { GateError } from "../errors.js";
import { parsePullRequest, PullRequestShapeError, type PullRequest } from "./pull-request.js";

/** A fixture folder name: plain, never `.` or `..` (FIXTURES.md). */
export const FIXTURE_NAME = /^[A-Za-z0-9._-]+$/;

/** Refuses any fixture name that is not plain, before anything touches the disk. */
export function assertFixtureName(name: string): void {
  if (!FIXTURE_NAME.test(name) || name === "." || name === "..") {
    throw new GateError("FIXTURE_NAME_REFUSED", `refused fixture name ${JSON.stringify(name)}`);
  }
}

/** `{ fixturesDir, name }` of a fixture path; the name is validated. */
export function splitFixturePath(dir: string): { fixturesDir: string; name: string } {
  const abs = path.resolve(dir);
  const name = path.basename(abs);
  assertFixtureName(name);
  return { fixturesDir: path.dirname(abs), name };
}

function readJson(file: string, label: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    throw new GateError("FIXTURE_INVALID", `${file}: missing (a fixture needs ${label})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new GateError("FIXTURE_INVALID", `${file}: not valid JSON (${(error as Error).message})`);
  }
}

/**
 * Reads a fixture's `pr.json` and `files.json` into a `PullRequest`, naming the file and the
 * problem when either is missing or malformed.
 *
 * @example loadFixturePullRequest("/pkg/fixtures", "001_readme_typo").number // 101
 */
export function loadFixturePullRequest(fixturesDir: string, name: string): PullRequest {
  assertFixtureName(name);
  const dir = path.join(fixturesDir, name);
  const prFile = path.join(dir, "pr.json");
  const filesFile = path.join(dir, "files.json");
  const prJson = readJson(prFile, "pr.json");
  const filesJson = readJson(filesFile, "files.json");
  try {
    return parsePullRequest(prJson, filesJson);
  } catch (error) {
    if (error instanceof PullRequestShapeError) {
      const file = error.part === "pr" ? prFile : filesFile;
      throw new GateError("FIXTURE_INVALID", `${file}: ${error.issues}`, { cause: error });
    }
    throw error;
  }
}
