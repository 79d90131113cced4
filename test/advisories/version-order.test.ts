import { describe, expect, it } from "vitest";
import { versionOrder } from "../../src/ecosystems/common/version-order.js";

/** Sorts with the ecosystem's order (each version read first, as the gate does). */
function sorted(ecosystem: "maven" | "nuget" | "composer", versions: string[]): string[] {
  const order = versionOrder(ecosystem);
  return [...versions].sort((a, b) => order.compare(order.read(a) as string, order.read(b) as string));
}

describe("Maven's version order (ComparableVersion)", () => {
  const order = versionOrder("maven");

  it("orders qualifiers alpha < beta < milestone < rc < snapshot < release < sp, numbers as numbers", () => {
    expect(
      sorted("maven", [
        "1.0",
        "1.0-sp1",
        "1.0-SNAPSHOT",
        "1.0-rc1",
        "1.0-m1",
        "1.0-beta2",
        "1.0-alpha1",
        "1.0.1",
        "1.10",
        "1.2",
      ]),
    ).toEqual([
      "1.0-alpha1",
      "1.0-beta2",
      "1.0-m1",
      "1.0-rc1",
      "1.0-SNAPSHOT",
      "1.0",
      "1.0-sp1",
      "1.0.1",
      "1.2",
      "1.10",
    ]);
  });

  it("treats trailing zeros and release words as the same version, cr as rc, a1 as alpha-1", () => {
    expect(order.compare("1", "1.0.0")).toBe(0);
    expect(order.compare("1.0.0.ga", "1")).toBe(0);
    expect(order.compare("1.0-final", "1.0")).toBe(0);
    expect(order.compare("1.0-cr1", "1.0-rc1")).toBe(0);
    expect(order.compare("1.0a1", "1.0-alpha-1")).toBe(0);
  });

  it("places log4j's 2.0-beta9 before 2.0 and 2.14.1 between 2.13.0 and 2.15.0 (semver reads neither 2.0-beta9 nor 2.4)", () => {
    expect(order.compare("2.0-beta9", "2.0")).toBe(-1);
    expect(order.compare("2.0-beta9", "2.4")).toBe(-1);
    expect(order.compare("2.14.1", "2.13.0")).toBe(1);
    expect(order.compare("2.14.1", "2.15.0")).toBe(-1);
    expect(order.compare("2.17.1", "2.15.0")).toBe(1);
  });

  it("reads no range or unresolved property as a version; satisfies Maven intervals and comparators", () => {
    expect(order.read("[1.0,2.0)")).toBeUndefined();
    expect(order.read("${log4j.version}")).toBeUndefined();
    expect(order.satisfies("2.14.1", "[2.13.0,2.15.0)")).toBe(true);
    expect(order.satisfies("2.15.0", "[2.13.0,2.15.0)")).toBe(false);
    expect(order.satisfies("2.14.1", ">=2.13 <2.15")).toBe(true);
    expect(order.satisfies("2.14.1", "[2.14.1]")).toBe(true);
  });
});

describe("NuGet's version order", () => {
  const order = versionOrder("nuget");

  it("orders four-part versions and pre-release labels as NuGet does (case aside, numbers before words)", () => {
    expect(
      sorted("nuget", ["13.0.1", "12.0.1", "13.0.1-beta1", "4.0.10.1", "4.0.10", "13.0.1-Beta2", "13.0.1-1"]),
    ).toEqual(["4.0.10", "4.0.10.1", "12.0.1", "13.0.1-1", "13.0.1-beta1", "13.0.1-Beta2", "13.0.1"]);
    expect(order.compare(order.read("1.0.0+abc") as string, order.read("1.0") as string)).toBe(0);
  });

  it("reads no floating version or range; satisfies NuGet intervals", () => {
    expect(order.read("12.*")).toBeUndefined();
    expect(order.read("[12.0,13.0)")).toBeUndefined();
    expect(order.satisfies("12.0.1", "[0,13.0.1)")).toBe(true);
    expect(order.satisfies("13.0.1", "[0,13.0.1)")).toBe(false);
  });
});

describe("Composer's version order", () => {
  const order = versionOrder("composer");

  it("orders dev < alpha < beta < RC < stable < patch, with an optional v and four numbers", () => {
    expect(
      sorted("composer", [
        "7.4.5",
        "v7.4.4",
        "7.4.4-p1",
        "7.4.4-RC1",
        "7.4.4-beta2",
        "7.4.4-alpha1",
        "7.4.4.1",
        "7.4.4-dev",
      ]),
    ).toEqual(["7.4.4-dev", "7.4.4-alpha1", "7.4.4-beta2", "7.4.4-RC1", "v7.4.4", "7.4.4-p1", "7.4.4.1", "7.4.5"]);
  });

  it("reads no constraint or branch as a version; satisfies comparator ranges", () => {
    expect(order.read("^7.4")).toBeUndefined();
    expect(order.read("dev-main")).toBeUndefined();
    expect(order.satisfies(order.read("7.4.4") as string, ">=7.0.0,<7.4.5")).toBe(true);
    expect(order.satisfies(order.read("7.4.5") as string, ">=7.0.0 <7.4.5")).toBe(false);
  });
});
