import { describe, expect, it } from "vitest";
import { copyleftSourceDetector } from "../../../src/detectors/licensing/copyleft-source.js";
import { addedFilePatch, buildPr, detectContext, headFiles, type FileSpec } from "../pr-builder.js";

async function run(files: FileSpec[], head: Record<string, string> = {}) {
  return copyleftSourceDetector.detect(detectContext(buildPr({ files }), { head: headFiles(head) }));
}

const GPL_HEADER = [
  "/*",
  " * fastjson - a small JSON parser.",
  " * This program is free software; you can redistribute it and/or modify",
  " * it under the terms of the GNU General Public License as published by",
  " * the Free Software Foundation; either version 2 of the License.",
  " */",
  "#include <stddef.h>",
];

describe("copyleftSourceDetector", () => {
  it("flags an added file with a GPL notice, once, on the notice's line", async () => {
    const findings = await run([
      {
        filename: "vendor/fastjson/parse.c",
        patch: addedFilePatch([...GPL_HEADER, " * GNU General Public License again"]),
      },
    ]);
    expect(findings).toEqual([
      expect.objectContaining({
        policy: "LIC-03",
        blocking: true,
        severity: "high",
        file: "vendor/fastjson/parse.c",
        line: 4,
        detector: "copyleft-source",
      }),
    ]);
  });

  it("flags a copyleft SPDX tag (weak copyleft too), and not a permissive or dual one", async () => {
    const findings = await run([
      {
        filename: "third_party/a.ts",
        patch: addedFilePatch(["// SPDX-License-Identifier: AGPL-3.0-or-later", "export const a = 1;"]),
      },
      { filename: "third_party/b.py", patch: addedFilePatch(["# SPDX-License-Identifier: GPL-2.0", "x = 1"]) },
      {
        filename: "third_party/c.ts",
        patch: addedFilePatch(["// SPDX-License-Identifier: MIT", "export const c = 1;"]),
      },
      {
        filename: "third_party/d.ts",
        patch: addedFilePatch(["/* SPDX-License-Identifier: MIT OR GPL-2.0-or-later */"]),
      },
      { filename: "third_party/e.c", patch: addedFilePatch(["// SPDX-License-Identifier: LGPL-2.1-or-later"]) },
    ]);
    expect(findings.map((f) => [f.file, f.line])).toEqual([
      ["third_party/a.ts", 1],
      ["third_party/b.py", 1],
      ["third_party/e.c", 1],
    ]);
    expect(findings[2]?.message).toContain("weak (file- or library-level) copyleft");
  });

  it("flags a vendored COPYING with the GPL or the LGPL text, not an MIT one, not the repository's own root licence", async () => {
    const gpl = [
      "                    GNU GENERAL PUBLIC LICENSE",
      "                       Version 2, June 1991",
      "(Some other Free Software Foundation software is covered by",
      "the GNU Library General Public License instead.)",
    ];
    const lgpl = [
      "                  GNU LESSER GENERAL PUBLIC LICENSE",
      "                       Version 2.1, February 1999",
      "the GNU General Public License",
    ];
    const findings = await run([
      { filename: "vendor/fastjson/COPYING", patch: addedFilePatch(gpl) },
      { filename: "vendor/tinylib/COPYING.LESSER", patch: addedFilePatch(lgpl) },
      { filename: "LICENSE", patch: addedFilePatch(gpl) },
      { filename: "third_party/mit/LICENSE", patch: addedFilePatch(["MIT License", "Copyright (c) 2020"]) },
    ]);
    expect(findings.map((f) => [f.file, f.line])).toEqual([
      ["vendor/fastjson/COPYING", 1],
      ["vendor/tinylib/COPYING.LESSER", 1],
    ]);
    expect(findings[0]?.message).toContain("GPL licence text");
    expect(findings[1]?.message).toContain("LGPL licence text");
  });

  it("flags an AGPL licence text named LICENSE.txt in a subfolder", async () => {
    const findings = await run([
      {
        filename: "third_party/srv/LICENSE.txt",
        patch: addedFilePatch(["", "GNU AFFERO GENERAL PUBLIC LICENSE", "Version 3"]),
      },
    ]);
    expect(findings).toEqual([expect.objectContaining({ policy: "LIC-03", line: 2 })]);
  });

  it("ignores modified files, docs that mention the GPL, and notices far below the top", async () => {
    const findings = await run([
      {
        filename: "src/parse.c",
        status: "modified",
        patch: "@@ -1,1 +1,2 @@\n x\n+ * under the terms of the GNU General Public License",
      },
      {
        filename: "docs/licensing.md",
        patch: addedFilePatch(["We never ship code under the GNU General Public License."]),
      },
      {
        filename: "src/late.c",
        patch: addedFilePatch([...Array.from({ length: 80 }, () => "int x;"), "// GNU General Public License"]),
      },
    ]);
    expect(findings).toEqual([]);
  });

  it("reads the head file when GitHub omitted the patch of an added file", async () => {
    const findings = await run([{ filename: "vendor/big/engine.c", status: "added" }], {
      "vendor/big/engine.c": GPL_HEADER.join("\n"),
    });
    expect(findings).toEqual([expect.objectContaining({ file: "vendor/big/engine.c", line: 4 })]);
  });

  it.each([
    ["vendor/lib/lgpl.c", ["/* under the terms of the GNU Lesser General Public License */"], 1, "LGPL"],
    [
      "pkg/ring/ring.go",
      ["// Package ring.", "//", "// Licensed under the GNU GPL v3; see COPYING.", "package ring"],
      3,
      "GPL",
    ],
    ["tools/conv.py", ["#!/usr/bin/env python3", "# Released under the GPLv2.", "import sys"], 2, "GPL"],
    [
      "static/vendor/chart.min.js",
      ["/*! chart v1 | @license GPL-3.0-or-later */", "!function(){}();"],
      1,
      "GPL-3.0-or-later",
    ],
    [
      "src/lib/agpl.ts",
      [
        "/**",
        " * This program is free software: you can redistribute it under the terms",
        " * of the GNU Affero General Public License, version 3.",
        " */",
      ],
      3,
      "AGPL",
    ],
    [
      "src/lib/mpl.ts",
      [
        "// This Source Code Form is subject to the terms of the Mozilla Public",
        "// License, v. 2.0. If a copy of the MPL was not distributed with this",
        "// file, You can obtain one at https://mozilla.org/MPL/2.0/.",
      ],
      1,
      "MPL",
    ],
    [
      "app/meta.py",
      [
        '"""A helper module.',
        "",
        "Copyright 2019. Distributed under the GNU General Public License v3.",
        '"""',
        "x = 1",
      ],
      3,
      "GPL",
    ],
    ["app/legacy.py", ['__license__ = "GPLv3"', "x = 1"], 1, "GPL"],
    [
      "src/Parser.java",
      ["/*", " * Copyright 2020 Example.", " * Licensed under the GPL v2.", " */", "class Parser {}"],
      3,
      "GPL",
    ],
  ])("flags the notice in %s", async (filename, lines, line, family) => {
    const findings = await run([{ filename, patch: addedFilePatch(lines) }]);
    expect(findings).toEqual([expect.objectContaining({ policy: "LIC-03", file: filename, line, blocking: true })]);
    expect(findings[0]?.message).toContain(family);
  });

  it("reads the header of a long parsed file, and not a notice below it", async () => {
    const body = Array.from({ length: 400 }, (_, i) => `export const v${i} = ${i};`);
    const top = await run([
      { filename: "src/big.ts", patch: addedFilePatch(["// Licensed under the GNU GPL v3.", ...body]) },
    ]);
    expect(top.map((f) => f.line)).toEqual([1]);
    const below = await run([
      {
        filename: "src/big2.ts",
        patch: addedFilePatch([...body.slice(0, 70), "// Licensed under the GNU GPL v3.", ...body]),
      },
    ]);
    expect(below).toEqual([]);
  });

  it.each([
    [
      "a string that names the GPL (TypeScript)",
      "src/licenses.ts",
      ['export const NAMES = { "GPL-3.0-only": "GNU General Public License v3.0" };'],
    ],
    [
      "a string that names the GPL (Python)",
      "reports/names.py",
      ['NAMES = {"GPL-3.0-only": "GNU General Public License v3.0 only"}'],
    ],
    [
      "a Go string, with an Apache header",
      "internal/lic/warn.go",
      [
        "// Licensed under the Apache License, Version 2.0.",
        "package lic",
        'const warn = "licensed under the GNU General Public License"',
      ],
    ],
    [
      "a template literal that shows an SPDX tag",
      "src/gen.ts",
      ["const header = `// SPDX-License-Identifier: GPL-3.0-only`;"],
    ],
    [
      "an MIT header",
      "src/lib/debounce.ts",
      ["/**", " * Copyright (c) 2019 tiny authors", " * SPDX-License-Identifier: MIT", " */"],
    ],
    [
      "a dual MIT-or-GPL notice",
      "src/lib/pad.ts",
      ["/*!", " * Dual licensed under the MIT or GPL Version 2 licenses.", " */"],
    ],
    ["a Python code line that mentions GPL", "app/check.py", ['if license_id.startswith("GPL"):', "    warn()"]],
  ])("does not flag %s", async (_label, filename, lines) => {
    expect(await run([{ filename, patch: addedFilePatch(lines) }])).toEqual([]);
  });
});

describe("copyleftSourceDetector: vendored folders in the head snapshot", () => {
  const GPL_TEXT = "                    GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007\n";

  it("flags source added under a vendored folder whose COPYING (not in the PR) is the GPL, once per folder", async () => {
    const findings = await run(
      [
        {
          filename: "vendor/github.com/acme/fastcsv/reader.go",
          patch: addedFilePatch(["package fastcsv", "func Read() {}"]),
        },
        {
          filename: "vendor/github.com/acme/fastcsv/writer.go",
          patch: addedFilePatch(["package fastcsv", "func Write() {}"]),
        },
        { filename: "vendor/github.com/acme/okcsv/reader.go", patch: addedFilePatch(["package okcsv"]) },
      ],
      {
        "vendor/github.com/acme/fastcsv/COPYING": GPL_TEXT,
        "vendor/github.com/acme/okcsv/LICENSE": "MIT License\n\nCopyright (c) 2020\n",
      },
    );
    expect(findings).toEqual([
      expect.objectContaining({
        policy: "LIC-03",
        blocking: true,
        file: "vendor/github.com/acme/fastcsv/reader.go",
        line: 1,
      }),
    ]);
    expect(findings[0]?.message).toContain("vendor/github.com/acme/fastcsv/COPYING");
  });

  it("takes the nearest licence: an MIT folder inside a GPL one is not flagged", async () => {
    const findings = await run([{ filename: "third_party/kit/mit-part/a.c", patch: addedFilePatch(["int a;"]) }], {
      "third_party/kit/COPYING": GPL_TEXT,
      "third_party/kit/mit-part/LICENSE": "MIT License\n",
    });
    expect(findings).toEqual([]);
  });

  it("does not look outside vendored folders, nor at the repository's own licence", async () => {
    const findings = await run([{ filename: "src/reader.go", patch: addedFilePatch(["package src"]) }], {
      "src/COPYING": GPL_TEXT,
      LICENSE: GPL_TEXT,
    });
    expect(findings).toEqual([]);
  });
});
