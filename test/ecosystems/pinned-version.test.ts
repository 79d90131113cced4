import { describe, expect, it } from "vitest";
import { lockfilesBeside, pinnedVersion } from "../../src/ecosystems/index.js";

const parsed = (text: string): unknown => JSON.parse(text);

describe("the version a head's lockfile pins", () => {
  it("reads v3 packages and v1 dependencies, and nothing from a link, a file: source or a non-lockfile", () => {
    const v3 = parsed('{"packages":{"":{},"node_modules/a":{"version":"2.2.0"},"node_modules/b":{"link":true}}}');
    expect(pinnedVersion("npm", v3, "a")).toBe("2.2.0");
    expect(pinnedVersion("npm", v3, "b")).toBeUndefined();
    expect(pinnedVersion("npm", parsed('{"dependencies":{"a":{"version":"1.0.1"}}}'), "a")).toBe("1.0.1");
    expect(pinnedVersion("npm", parsed('{"dependencies":{"a":{"version":"file:../a"}}}'), "a")).toBeUndefined();
    expect(pinnedVersion("npm", "not a lockfile", "a")).toBeUndefined();
    // An ecosystem whose lockfiles the licence checks do not read pins nothing.
    expect(pinnedVersion("pypi", v3, "a")).toBeUndefined();
  });

  it("looks beside the manifest, for npm only", () => {
    expect(lockfilesBeside("npm", "web/package.json")).toEqual(["web/npm-shrinkwrap.json", "web/package-lock.json"]);
    expect(lockfilesBeside("npm", "package.json")).toEqual(["npm-shrinkwrap.json", "package-lock.json"]);
    expect(lockfilesBeside("pypi", "requirements.txt")).toEqual([]);
  });
});
