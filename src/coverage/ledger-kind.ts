import type { LedgerKind } from "../domain/coverage.js";
import type { ChangedFile } from "../domain/pull-request.js";
import { parsePatch } from "../domain/patch.js";
import { isWorkflowPath, languageOf } from "../ecosystems/file-kind.js";
import { isManifest, manifestLanguage } from "../ecosystems/index.js";

/** Binaries that can run or be loaded: shared libraries, archives of code, executables, bytecode. */
const EXECUTABLE_BINARY =
  /\.(so(\.\d+)*|dll|dylib|a|o|obj|lib|jar|war|ear|aar|apk|dex|class|whl|egg|pyc|pyo|pyd|node|wasm|exe|msi|bin|elf|com|deb|rpm|dmg|pkg|appimage|app|out|ko|sys|scr|cpl|ocx|jnilib|bundle|nupkg|gem|crx|xpi|vsix)$/i;

/** Pictures, fonts, sound, video: nothing a policy concerns is read from them. */
const MEDIA =
  /\.(png|jpe?g|gif|webp|avif|bmp|ico|icns|tiff?|psd|heic|woff2?|ttf|otf|eot|mp3|wav|ogg|oga|flac|aac|m4a|mp4|m4v|mov|webm|avi|mkv)$/i;

const SHEBANG: ReadonlyArray<[RegExp, string]> = [
  [/^#!.*\b(perl)\b/, "perl"],
  [/^#!.*\b(python[\d.]*)\b/, "python"],
  [/^#!.*\b(node|deno|bun)\b/, "javascript"],
  [/^#!.*\b(ruby)\b/, "ruby"],
  [/^#!.*\b(php)\b/, "php"],
  [/^#!.*\b(ba|z|k|da|fi)?sh\b/, "shell"],
  [/^#!/, "script"],
];

/** What a changed file is and its language (or format), for the ledger. */
export interface FileKind {
  kind: LedgerKind;
  language: string;
}

function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/** The interpreter a script's first line names (`#!/usr/bin/env perl`), for a file without a known extension. */
function shebangLanguage(file: ChangedFile): string | undefined {
  const first = parsePatch(file.patch).find((l) => l.kind !== "del" && l.line === 1);
  if (!first) return undefined;
  return SHEBANG.find(([pattern]) => pattern.test(first.text))?.[1];
}

/**
 * What a changed file is for the coverage ledger: code (in which language), a manifest, a
 * workflow, a binary that can run, media, or other text.
 *
 * @example ledgerKind({ filename: "cgi-bin/run.pl", ... }) // { kind: "code", language: "perl" }
 */
export function ledgerKind(file: ChangedFile): FileKind {
  const name = file.filename;
  const base = name.slice(name.lastIndexOf("/") + 1);
  if (isWorkflowPath(name)) return { kind: "workflow", language: "workflow" };
  // A manifest of a registered ecosystem, unless it is a program (setup.py is Python code).
  if (isManifest(name) && manifestLanguage(name) === undefined) return { kind: "manifest", language: base };
  const binary = EXECUTABLE_BINARY.exec(name);
  // A versioned shared library (`libz.so.1.2`) is a `.so`.
  if (binary) return { kind: "binary", language: (binary[1] ?? "").replace(/(\.\d+)+$/, "").toLowerCase() };
  if (MEDIA.test(name)) return { kind: "media", language: extensionOf(name) };
  const ext = extensionOf(name);
  const language = languageOf(name) ?? (ext === "" ? shebangLanguage(file) : undefined);
  if (language) return { kind: "code", language };
  return { kind: "text", language: ext || base };
}
