import { describe, expect, it } from "vitest";
import { lockedVersion, lockfilesBeside, parsedLock } from "../../../src/detectors/licensing/resolved-version.js";

describe("the version a head's lockfile pins", () => {
  it("reads v3 packages, v1 dependencies, and nothing from a range, a link or text that is not JSON", () => {
    const v3 = parsedLock('{"packages":{"":{},"node_modules/a":{"version":"2.2.0"},"node_modules/b":{"link":true}}}');
    expect(lockedVersion(v3, "a")).toBe("2.2.0");
    expect(lockedVersion(v3, "b")).toBeUndefined();
    expect(lockedVersion(parsedLock('{"dependencies":{"a":{"version":"1.0.1"}}}'), "a")).toBe("1.0.1");
    expect(lockedVersion(parsedLock('{"dependencies":{"a":{"version":"file:../a"}}}'), "a")).toBeUndefined();
    expect(lockedVersion(parsedLock("not json"), "a")).toBeUndefined();
  });

  it("looks beside the manifest, for npm only", () => {
    expect(lockfilesBeside("npm", "web/package.json")).toEqual(["web/npm-shrinkwrap.json", "web/package-lock.json"]);
    expect(lockfilesBeside("npm", "package.json")).toEqual(["npm-shrinkwrap.json", "package-lock.json"]);
    expect(lockfilesBeside("pypi", "requirements.txt")).toEqual([]);
  });
});
