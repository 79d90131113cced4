import type { Ecosystem } from "../ecosystem.js";
import { versionOrder } from "../common/version-order.js";
import { pipfileParser } from "./pipfile.js";
import { createPypiResolver } from "./pypi-resolver.js";
import { pyprojectTomlParser } from "./pyproject-toml.js";
import { poetryLockReader, uvLockReader } from "./python-locks.js";
import { pipfileLockReader, requirementsReader } from "./python-pins.js";
import { requirementsTxtParser } from "./requirements-txt.js";
import { setupCfgParser } from "./setup-cfg.js";
import { setupPyParser } from "./setup-py.js";

/**
 * PyPI: requirements files, pyproject.toml, setup.py, setup.cfg, Pipfile; Pipfile.lock, poetry.lock,
 * uv.lock; PEP 440; the PyPI JSON API.
 */
export const pypi: Ecosystem = {
  name: "pypi",
  osvName: "PyPI",
  manifestParsers: [requirementsTxtParser, pyprojectTomlParser, setupPyParser, setupCfgParser, pipfileParser],
  versionReaders: [requirementsReader, pipfileLockReader, poetryLockReader, uvLockReader],
  // setup.py is a Python program pip runs: the ledger counts it as Python.
  manifestLanguage: (path) => (setupPyParser.matches(path) ? "python" : undefined),
  versionOrder: () => versionOrder("pypi"),
  licenseRegistry: {
    urlSetting: "pypiUrl",
    create: (http, baseUrl) => createPypiResolver({ ...http, ...(baseUrl ? { baseUrl } : {}) }),
  },
};
