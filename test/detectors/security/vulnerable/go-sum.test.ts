import { describe, expect, it } from "vitest";
import { pinnedDependencies } from "../../../../src/ecosystems/pinned-dependencies.js";
import { buildPr, headFiles } from "../../pr-builder.js";
import { changedFile } from "./lockfile-change.js";

const GO_MOD = [
  "module example.com/shop",
  "",
  "go 1.22",
  "",
  "require (",
  "\tgithub.com/gin-gonic/gin v1.9.1",
  "\tgolang.org/x/net v0.16.0 // indirect",
  ")",
  "",
].join("\n");

const GO_SUM = [
  "github.com/gin-gonic/gin v1.9.1 h1:4idEAncQnU5cB7BeOkPtxjfCSye0AAm1R0RVIqJ+Jmg=",
  "github.com/gin-gonic/gin v1.9.1/go.mod h1:hPrL7YrpYKXt5YId3A/Tnip5kqbEAP+KLuI3SUcPTeU=",
  "golang.org/x/net v0.10.0/go.mod h1:0qNGK6F8kojg2nk9dLZ2mShWaEBan6FAoqfSigmmuDg=",
  "golang.org/x/net v0.14.0 h1:BONx9s002vGdD9umnlX1Po8vOZmrgH34qlHcD1MfK14=",
  "golang.org/x/net v0.16.0 h1:7eBu7KsSvFDtSXUIDbh3aqlK4DPsZ1rByC8PFfBThos=",
  "golang.org/x/net v0.16.0/go.mod h1:NxSsAGuq816PNPmqtQdLE42eU2Fs7NoRIZrHJAlaCOE=",
  "golang.org/x/text v0.13.0 h1:ablQoSUd0tRdKxZewP80B+BaqeKJuVhuRxj/dkrun3k=",
  "",
].join("\n");

async function pinsOf(goSumAdded: (line: string) => boolean, withGoMod = true) {
  const sum = changedFile("go.sum", GO_SUM, goSumAdded);
  const pr = buildPr({ files: [sum.spec] });
  return pinnedDependencies(pr.files, headFiles({ ...sum.head, ...(withGoMod ? { "go.mod": GO_MOD } : {}) }));
}

describe("go.sum: the module versions the build downloads", () => {
  it("takes each added module at the highest version go.sum holds code for, never a /go.mod-only line", async () => {
    const { pinned, unread } = await pinsOf(
      (l) => l.startsWith("golang.org/x/net") || l.startsWith("golang.org/x/text"),
    );
    expect(unread).toEqual([]);
    expect(pinned.map((p) => [p.name, p.version, p.line, p.from, p.scope])).toEqual([
      ["golang.org/x/net", "v0.16.0", 5, "lockfile", "runtime"],
      ["golang.org/x/text", "v0.13.0", 7, "lockfile", "runtime"],
    ]);
  });

  it("a lower version's added line is not the one built: nothing to ask about", async () => {
    const { pinned } = await pinsOf((l) => l.startsWith("golang.org/x/net v0.14.0"));
    expect(pinned).toEqual([]);
  });

  it("a module go.mod requires directly has no `via`; an indirect one says go.sum does not tell which brought it", async () => {
    const { pinned } = await pinsOf((l) => !l.includes("/go.mod"));
    const gin = pinned.find((p) => p.name === "github.com/gin-gonic/gin");
    const net = pinned.find((p) => p.name === "golang.org/x/net");
    expect(gin?.via).toBeUndefined();
    expect(net?.via).toBe("a module go.mod requires (go.sum does not say which)");
  });

  it("go.sum changed beside go.mod: the versions come from go.sum (the lockfile), once each", async () => {
    const sum = changedFile("go.sum", GO_SUM, (l) => l.startsWith("golang.org/x/net v0.16.0 "));
    const mod = changedFile("go.mod", GO_MOD, (l) => l.includes("golang.org/x/net"));
    const pr = buildPr({ files: [mod.spec, sum.spec] });
    const { pinned } = await pinnedDependencies(pr.files, headFiles({ ...sum.head, ...mod.head }));
    expect(pinned.map((p) => [p.file, p.name, p.version])).toEqual([["go.sum", "golang.org/x/net", "v0.16.0"]]);
  });
});
