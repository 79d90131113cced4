import { z } from "zod";
import type { LicenseResolver } from "../../domain/license-resolver.js";
import { classifyLicense } from "../../licenses/license-policy.js";
import { getRegistryJson, type RegistryHttpOptions } from "../../licenses/registry-http.js";
import { readDocument, registryLookup } from "../../licenses/registry-lookup.js";

export interface PypiResolverOptions extends RegistryHttpOptions {
  /** The PyPI root (JSON API at `/pypi/<name>/json`); a mirror works too. */
  baseUrl?: string;
}

const PYPI_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,198}[A-Za-z0-9])?$/;
const PYPI_VERSION = /^[A-Za-z0-9][A-Za-z0-9.+!_-]{0,63}$/;

const ProjectSchema = z.looseObject({
  info: z.looseObject({
    license_expression: z.string().nullable().optional(),
    license: z.string().nullable().optional(),
    classifiers: z.array(z.string()).nullable().optional(),
  }),
});

/** Trove licence classifiers (after `License :: `) and the SPDX ids they mean. */
const CLASSIFIERS: Readonly<Record<string, string>> = {
  "OSI Approved :: MIT License": "MIT",
  "OSI Approved :: MIT No Attribution License (MIT-0)": "MIT-0",
  "OSI Approved :: Apache Software License": "Apache-2.0",
  "OSI Approved :: BSD License": "BSD-3-Clause",
  "OSI Approved :: ISC License (ISCL)": "ISC",
  "OSI Approved :: Zero-Clause BSD (0BSD)": "0BSD",
  "OSI Approved :: The Unlicense (Unlicense)": "Unlicense",
  "OSI Approved :: zlib/libpng License": "Zlib",
  "OSI Approved :: Python Software Foundation License": "PSF-2.0",
  "OSI Approved :: Boost Software License 1.0 (BSL-1.0)": "BSL-1.0",
  "OSI Approved :: Mozilla Public License 2.0 (MPL 2.0)": "MPL-2.0",
  "OSI Approved :: Eclipse Public License 2.0 (EPL-2.0)": "EPL-2.0",
  "OSI Approved :: European Union Public Licence 1.2 (EUPL 1.2)": "EUPL-1.2",
  "OSI Approved :: GNU General Public License (GPL)": "GPL-1.0-or-later",
  "OSI Approved :: GNU General Public License v2 (GPLv2)": "GPL-2.0-only",
  "OSI Approved :: GNU General Public License v2 or later (GPLv2+)": "GPL-2.0-or-later",
  "OSI Approved :: GNU General Public License v3 (GPLv3)": "GPL-3.0-only",
  "OSI Approved :: GNU General Public License v3 or later (GPLv3+)": "GPL-3.0-or-later",
  "OSI Approved :: GNU Affero General Public License v3": "AGPL-3.0-only",
  "OSI Approved :: GNU Affero General Public License v3 or later (AGPLv3+)": "AGPL-3.0-or-later",
  "OSI Approved :: GNU Lesser General Public License v2 (LGPLv2)": "LGPL-2.0-only",
  "OSI Approved :: GNU Lesser General Public License v2 or later (LGPLv2+)": "LGPL-2.0-or-later",
  "OSI Approved :: GNU Lesser General Public License v3 (LGPLv3)": "LGPL-3.0-only",
  "OSI Approved :: GNU Lesser General Public License v3 or later (LGPLv3+)": "LGPL-3.0-or-later",
  "OSI Approved :: GNU Library or Lesser General Public License (LGPL)": "LGPL-2.0-or-later",
  "CC0 1.0 Universal (CC0 1.0) Public Domain Dedication": "CC0-1.0",
  "Other/Proprietary License": "LicenseRef-Proprietary",
};

/**
 * The SPDX expression the Trove classifiers name, or undefined. Several licence classifiers
 * mean a choice (dual licensing), so they are joined with OR; unmapped ones are left out.
 *
 * @example licenseFromClassifiers(["License :: OSI Approved :: MIT License"]) // "MIT"
 */
export function licenseFromClassifiers(classifiers: readonly string[]): string | undefined {
  const ids = new Set<string>();
  for (const c of classifiers) {
    if (!c.startsWith("License :: ")) continue;
    const id = CLASSIFIERS[c.slice("License :: ".length).trim()];
    if (id && id !== "LicenseRef-Proprietary") ids.add(id);
  }
  const list = [...ids];
  if (list.length === 0) return undefined;
  return list.length === 1 ? list[0] : list.join(" OR ");
}

function spdxOrUndefined(text: string | null | undefined): string | undefined {
  const trimmed = text?.trim();
  // Some projects paste the whole licence text here; only a short SPDX expression counts.
  if (!trimmed || trimmed.length > 200 || trimmed.includes("\n")) return undefined;
  return classifyLicense(trimmed).parsed ? trimmed : undefined;
}

/**
 * Looks up PyPI licences in the JSON API: `license_expression` (PEP 639), else `license` when it
 * is an SPDX expression, else the Trove classifiers. A 404 or no licence is unknown; PyPI not
 * answering (after retries) is a failed lookup.
 *
 * @example await createPypiResolver().lookup("pypi", "requests") // { status: "found", license: "Apache-2.0" }
 */
export function createPypiResolver(opts: PypiResolverOptions = {}): LicenseResolver {
  const base = (opts.baseUrl ?? "https://pypi.org").replace(/\/+$/, "");
  const registry = `PyPI ${base}`;

  const lookup: LicenseResolver["lookup"] = async (ecosystem, name, version) => {
    if (ecosystem !== "pypi" || !PYPI_NAME.test(name)) return { status: "unknown" };
    const project = encodeURIComponent(name.toLowerCase().replace(/[-_.]+/g, "-"));
    return registryLookup(registry, async () => {
      const pinned = version !== undefined && PYPI_VERSION.test(version);
      let answer = await getRegistryJson(
        `${base}${pinned ? `/pypi/${project}/${encodeURIComponent(version)}/json` : `/pypi/${project}/json`}`,
        opts,
      );
      if (pinned && !answer.found) answer = await getRegistryJson(`${base}/pypi/${project}/json`, opts);
      if (!answer.found) return undefined;
      const info = readDocument(answer.json, ProjectSchema, "a PyPI project document").info;
      return (
        spdxOrUndefined(info.license_expression) ??
        spdxOrUndefined(info.license) ??
        licenseFromClassifiers(info.classifiers ?? [])
      );
    });
  };

  return { lookup };
}
