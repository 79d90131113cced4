import { fileURLToPath } from "node:url";
import path from "node:path";

/**
 * The package's own root, found from this module's location (src/ or dist/ are one level down),
 * so packaged assets resolve wherever the package is installed (docs/design.md, reason 8).
 */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The shipped policy corpus. */
export const BUNDLED_POLICIES_DIR = path.join(PACKAGE_ROOT, "policies");

/** The shipped fixtures. */
export const BUNDLED_FIXTURES_DIR = path.join(PACKAGE_ROOT, "fixtures");

/** The shipped configuration file: the server-wide configuration when `GATE_CONFIG` is unset. */
export const BUNDLED_CONFIG_FILE = path.join(PACKAGE_ROOT, "config", "gate.default.yml");
