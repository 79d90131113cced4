/**
 * The licences the offline resolver knows in the licensing tests (`ecosystem:package  licence`, one a
 * line); any other package is unknown to it.
 */
export const TEST_REGISTRY = registryOf(`
  npm:gpl-chart-lib           GPL-3.0-only
  npm:dual-grid               MIT OR GPL-3.0-only
  npm:mixed-kit               MIT AND AGPL-3.0-only
  npm:old-gpl                 GPL-2.0+
  npm:lgpl-widget             LGPL-2.1-only
  npm:mpl-parser              MPL-2.0
  npm:eupl-thing              EUPL-1.2
  npm:express                 MIT
  npm:weird                   SEE LICENSE IN EULA.txt
  pypi:requests               Apache-2.0
  go:github.com/acme/gplkit   AGPL-3.0-only
  cargo:copyleft-core         GPL-3.0-or-later
  cargo:serde                 MIT OR Apache-2.0
`);

/** A registry from `key  licence expression` lines. */
function registryOf(table: string): Record<string, { license: string }> {
  const entries = table
    .trim()
    .split("\n")
    .map((line) => {
      const [key = "", ...expression] = line.trim().split(/\s+/);
      return [key, { license: expression.join(" ") }] as const;
    });
  return Object.fromEntries(entries);
}
