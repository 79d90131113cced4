/** The licences the offline resolver knows in the licensing tests; any other package is unknown. */
export const TEST_REGISTRY = {
  "npm:gpl-chart-lib": { license: "GPL-3.0-only" },
  "npm:dual-grid": { license: "MIT OR GPL-3.0-only" },
  "npm:mixed-kit": { license: "MIT AND AGPL-3.0-only" },
  "npm:old-gpl": { license: "GPL-2.0+" },
  "npm:lgpl-widget": { license: "LGPL-2.1-only" },
  "npm:mpl-parser": { license: "MPL-2.0" },
  "npm:eupl-thing": { license: "EUPL-1.2" },
  "npm:express": { license: "MIT" },
  "npm:weird": { license: "SEE LICENSE IN EULA.txt" },
  "pypi:requests": { license: "Apache-2.0" },
  "go:github.com/acme/gplkit": { license: "AGPL-3.0-only" },
  "cargo:copyleft-core": { license: "GPL-3.0-or-later" },
  "cargo:serde": { license: "MIT OR Apache-2.0" },
};
