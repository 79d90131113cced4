import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPypiResolver, licenseFromClassifiers } from "../../src/ecosystems/pypi/pypi-resolver.js";
import { FAST_RETRY, startFakeRegistry, type FakeRegistry } from "../fakes/registry.js";
import { licenseOf } from "./license-of.js";

function project(info: Record<string, unknown>) {
  return { info: { license_expression: null, license: null, classifiers: [], ...info } };
}

describe("PyPI licence resolver against a fake JSON API", () => {
  let reg: FakeRegistry;
  beforeAll(async () => {
    reg = await startFakeRegistry();
    reg.pypi.set("modern/json", project({ license_expression: "MIT OR Apache-2.0", license: "whatever" }));
    reg.pypi.set("requests/json", project({ license: "Apache-2.0" }));
    reg.pypi.set("requests/2.0.0/json", project({ license: "ISC" }));
    reg.pypi.set(
      "gpl-thing/json",
      project({
        license: "GNU GPL",
        classifiers: ["License :: OSI Approved :: GNU General Public License v3 (GPLv3)"],
      }),
    );
    reg.pypi.set(
      "dual/json",
      project({
        classifiers: [
          "License :: OSI Approved :: Apache Software License",
          "License :: OSI Approved :: BSD License",
          "Programming Language :: Python",
        ],
      }),
    );
    reg.pypi.set(
      "full-text/json",
      project({ license: "MIT License\n\nCopyright (c) ...\nPermission is hereby granted" }),
    );
    reg.pypi.set("nothing/json", project({}));
    reg.pypi.set("django-rest-framework/json", project({ license: "BSD-3-Clause" }));
  });
  afterAll(() => reg.close());
  beforeEach(() => {
    reg.mode = "ok";
    reg.requests.length = 0;
  });

  it("prefers license_expression, then an SPDX license field, then classifiers", async () => {
    const pypi = createPypiResolver({ baseUrl: reg.pypiUrl });
    expect(await licenseOf(pypi.lookup("pypi", "modern"))).toBe("MIT OR Apache-2.0");
    expect(await licenseOf(pypi.lookup("pypi", "requests"))).toBe("Apache-2.0");
    expect(await licenseOf(pypi.lookup("pypi", "gpl-thing"))).toBe("GPL-3.0-only");
    expect(await licenseOf(pypi.lookup("pypi", "dual"))).toBe("Apache-2.0 OR BSD-3-Clause");
    expect(await licenseOf(pypi.lookup("pypi", "full-text"))).toBeUndefined();
    expect(await licenseOf(pypi.lookup("pypi", "nothing"))).toBeUndefined();
  });

  it("asks for the pinned version, falling back to the project when the version is unknown", async () => {
    const pypi = createPypiResolver({ baseUrl: reg.pypiUrl });
    expect(await licenseOf(pypi.lookup("pypi", "requests", "2.0.0"))).toBe("ISC");
    expect(await licenseOf(pypi.lookup("pypi", "requests", "9.9.9"))).toBe("Apache-2.0");
    expect(reg.requests).toEqual(["/pypi/requests/2.0.0/json", "/pypi/requests/9.9.9/json", "/pypi/requests/json"]);
  });

  it("normalises names per PEP 503", async () => {
    const pypi = createPypiResolver({ baseUrl: reg.pypiUrl });
    expect(await licenseOf(pypi.lookup("pypi", "Django_REST.Framework"))).toBe("BSD-3-Clause");
    expect(reg.requests).toEqual(["/pypi/django-rest-framework/json"]);
  });

  it("is unknown for other ecosystems and odd names; a failure or timeout is a failed lookup naming PyPI", async () => {
    const pypi = createPypiResolver({ baseUrl: reg.pypiUrl, timeoutMs: 200, retry: FAST_RETRY });
    expect(await pypi.lookup("pypi", "missing")).toEqual({ status: "unknown" });
    expect(await licenseOf(pypi.lookup("npm", "requests"))).toBeUndefined();
    expect(await licenseOf(pypi.lookup("pypi", "../x"))).toBeUndefined();
    reg.mode = "fail";
    expect(await pypi.lookup("pypi", "requests")).toEqual({
      status: "failed",
      registry: `PyPI ${reg.pypiUrl}`,
      reason: "answered 503 (3 attempts)",
    });
    reg.mode = "hang";
    expect(await pypi.lookup("pypi", "requests")).toMatchObject({
      status: "failed",
      reason: "timed out after 200 ms (3 attempts)",
    });
  });
});

describe("licenseFromClassifiers", () => {
  it.each([
    [["License :: OSI Approved :: MIT License"], "MIT"],
    [["License :: OSI Approved :: GNU General Public License v3 or later (GPLv3+)"], "GPL-3.0-or-later"],
    [["License :: OSI Approved :: GNU Affero General Public License v3"], "AGPL-3.0-only"],
    [["License :: OSI Approved :: BSD License"], "BSD-3-Clause"],
    [["License :: OSI Approved :: GNU Lesser General Public License v3 (LGPLv3)"], "LGPL-3.0-only"],
    [["License :: Other/Proprietary License"], undefined],
    [["License :: OSI Approved :: Some Odd License"], undefined],
    [["Topic :: Software Development"], undefined],
  ])("%j → %s", (classifiers, expected) => {
    expect(licenseFromClassifiers(classifiers)).toBe(expected);
  });
});
