import { describe, expect, it } from "vitest";
import { baseText, documentChanges } from "../../../../src/ecosystems/common/document-changes.js";
import { interpolate, mavenPomParser } from "../../../../src/ecosystems/maven/maven-pom.js";
import { nugetParser } from "../../../../src/ecosystems/nuget/nuget.js";
import { manifestParserFor } from "../../../../src/ecosystems/index.js";
import { dependencyLicensesDetector } from "../../../../src/detectors/licensing/dependency-licenses.js";
import { addedFilePatch, buildPr, detectContext, headFiles, offlineLicenses } from "../../pr-builder.js";

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>com.acme</groupId>
    <artifactId>acme-parent</artifactId>
    <version>7</version>
  </parent>
  <artifactId>orders</artifactId>
  <version>2.1.0</version>
  <properties>
    <jackson.version>2.17.1</jackson.version>
    <!-- <gpl.version>1.0</gpl.version> is only a comment -->
    <pdf.version>\${pdf.major}.4</pdf.version>
    <pdf.major>3</pdf.major>
  </properties>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>org.jooq</groupId>
        <artifactId>jooq</artifactId>
        <version>3.19.8</version>
      </dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
    <dependency><groupId>com.fasterxml.jackson.core</groupId><artifactId>jackson-databind</artifactId><version>\${jackson.version}</version></dependency>
    <dependency>
      <artifactId>pdf-kit</artifactId>
      <groupId>org.pdfkit</groupId>
      <version>\${pdf.version}</version>
      <scope>runtime</scope>
    </dependency>
    <dependency>
      <groupId>org.jooq</groupId>
      <artifactId>jooq</artifactId>
      <scope>test</scope>
    </dependency>
    <dependency>
      <groupId>jakarta.servlet</groupId>
      <artifactId>jakarta.servlet-api</artifactId>
      <version>6.0.0</version>
      <scope>provided</scope>
    </dependency>
    <dependency>
      <groupId>\${project.groupId}</groupId>
      <artifactId>orders-model</artifactId>
      <version>\${project.version}</version>
    </dependency>
    <dependency>
      <groupId>org.acme</groupId>
      <artifactId>odd-scope</artifactId>
      <version>1.0</version>
      <scope>\${shade.scope}</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <artifactId>maven-checkstyle-plugin</artifactId>
        <dependencies>
          <dependency>
            <groupId>com.puppycrawl.tools</groupId>
            <artifactId>checkstyle</artifactId>
            <version>10.17.0</version>
          </dependency>
        </dependencies>
      </plugin>
    </plugins>
  </build>
</project>
`;

/** A one-hunk patch from base to head: the common head and tail kept out, one line of context before. */
function patchOf(base: string, head: string): string {
  const a = base.split("\n");
  const b = head.split("\n");
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  const from = Math.max(0, p - 1);
  const context = a.slice(from, p);
  const del = a.slice(p, a.length - s);
  const add = b.slice(p, b.length - s);
  return [
    `@@ -${from + 1},${context.length + del.length} +${from + 1},${context.length + add.length} @@`,
    ...context.map((l) => ` ${l}`),
    ...del.map((l) => `-${l}`),
    ...add.map((l) => `+${l}`),
  ].join("\n");
}

function file(filename: string, patch: string, status: "added" | "modified" = "modified") {
  const f = buildPr({ files: [{ filename, patch, status }] }).files[0];
  if (!f) throw new Error("no file");
  return f;
}

function changesOf(parser: typeof mavenPomParser, filename: string, patch: string, head: string | undefined) {
  const got = documentChanges(parser, file(filename, patch), head);
  if ("unread" in got) throw new Error(got.unread);
  return got.changes;
}

describe("pom.xml", () => {
  it("reads dependencies and dependencyManagement with scopes, properties filled in, parent coordinates inherited", () => {
    const decl = mavenPomParser.declarations(POM, "pom.xml") ?? [];
    expect(decl.map((d) => [d.name, d.version, d.scope])).toEqual([
      ["com.fasterxml.jackson.core:jackson-databind", "2.17.1", "runtime"],
      ["org.pdfkit:pdf-kit", "3.4", "runtime"],
      // Its version comes from dependencyManagement; its scope is the use's.
      ["org.jooq:jooq", "3.19.8", "dev"],
      ["jakarta.servlet:jakarta.servlet-api", "6.0.0", "dev"],
      ["com.acme:orders-model", "2.1.0", "runtime"],
      // An unresolved scope property may be compile: fail closed.
      ["org.acme:odd-scope", "1.0", "runtime"],
      // The managed jooq entry is not counted again: this file uses it (in test scope).
      // A build plugin's own classpath is the build's tooling.
      ["com.puppycrawl.tools:checkstyle", "10.17.0", "dev"],
    ]);
    expect(decl[1]).toMatchObject({ line: 28, endLine: 33 });
  });

  it("is undefined for a file that is not well-formed XML or has no project", () => {
    expect(mavenPomParser.declarations("<project><dependencies></project>", "pom.xml")).toBeUndefined();
    expect(mavenPomParser.declarations("<settings/>", "pom.xml")).toBeUndefined();
  });

  it("leaves a property it cannot resolve as written, and stops on a cycle", () => {
    expect(
      interpolate(
        "${a}-${missing}",
        new Map([
          ["a", "${b}"],
          ["b", "1"],
        ]),
      ),
    ).toBe("1-${missing}");
    expect(interpolate("${x}", new Map([["x", "${x}"]]))).toBe("${x}");
  });

  it("an added dependency is located on its first added line; a property bump changes the version it names", () => {
    const headAdded = POM.replace(
      "  </dependencies>\n  <build>",
      "    <dependency>\n      <groupId>org.gpl</groupId>\n      <artifactId>gpl-lib</artifactId>\n      <version>1.0</version>\n    </dependency>\n  </dependencies>\n  <build>",
    );
    const at = headAdded.split("\n").indexOf("      <groupId>org.gpl</groupId>");
    const patch = patchOf(POM, headAdded);
    expect(changesOf(mavenPomParser, "pom.xml", patch, headAdded)).toEqual([
      {
        ecosystem: "maven",
        file: "pom.xml",
        name: "org.gpl:gpl-lib",
        version: "1.0",
        kind: "added",
        scope: "runtime",
        line: at,
      },
    ]);

    const bumped = POM.replace("<jackson.version>2.17.1<", "<jackson.version>2.18.0<");
    const bump = patchOf(POM, bumped);
    expect(changesOf(mavenPomParser, "pom.xml", bump, bumped)).toMatchObject([
      {
        name: "com.fasterxml.jackson.core:jackson-databind",
        kind: "version_changed",
        previousVersion: "2.17.1",
        version: "2.18.0",
      },
    ]);
  });

  it("a scope moved from test to compile is a scope change; a reformatted element is none", () => {
    const moved = POM.replace("<scope>test</scope>", "<scope>compile</scope>");
    const line = moved.split("\n").indexOf("      <scope>compile</scope>") + 1;
    const patch = patchOf(POM, moved);
    expect(changesOf(mavenPomParser, "pom.xml", patch, moved)).toMatchObject([
      { name: "org.jooq:jooq", kind: "scope_changed", scope: "runtime", previousScope: "dev", line },
    ]);
    const spaced = POM.replace("<version>6.0.0</version>", "<version> 6.0.0 </version>");
    const p2 = patchOf(POM, spaced);
    expect(changesOf(mavenPomParser, "pom.xml", p2, spaced)).toEqual([]);
  });

  it("without the head file, or with one that does not parse, the pom is unread: the detector records it", async () => {
    const patch = "@@ -1,1 +1,2 @@\n <project>\n+  <dependencies/>";
    expect(documentChanges(mavenPomParser, file("pom.xml", patch), undefined)).toEqual({
      unread: "pom.xml is read whole, and the head file could not be read",
    });
    const gaps: { file: string; detail: string }[] = [];
    const ctx = detectContext(buildPr({ files: [{ filename: "svc/pom.xml", patch }] }), {
      head: headFiles({ "svc/pom.xml": "<project><dependencies></project>" }),
      notRead: gaps,
    });
    expect(await dependencyLicensesDetector.detect(ctx)).toEqual([]);
    expect(gaps).toEqual([{ file: "svc/pom.xml", detail: "pom.xml: the head file does not parse" }]);
    expect(dependencyLicensesDetector.reads(file("svc/pom.xml", patch))).toBe(true);
  });

  it("an added pom reads every dependency as new, with its scope", async () => {
    const patch = addedFilePatch(POM.split("\n"));
    const ctx = detectContext(buildPr({ files: [{ filename: "pom.xml", patch, status: "added" }] }), {
      head: headFiles({ "pom.xml": POM }),
      licenses: offlineLicenses({
        "maven:org.pdfkit:pdf-kit": { license: "GPL-3.0-only" },
        "maven:org.jooq:jooq": { license: "Apache-2.0" },
      }),
    });
    const findings = await dependencyLicensesDetector.detect(ctx);
    expect(findings.filter((f) => f.policy === "LIC-02").map((f) => [f.package?.name, f.line])).toEqual([
      ["org.pdfkit:pdf-kit", 28],
    ]);
  });
});

describe("baseText", () => {
  it("takes a patch back off the head file", () => {
    expect(baseText("a\nB\nc\nd\ne", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c")).toBe("a\nb\nc\nd\ne");
    expect(baseText("x\na\nc", "@@ -1,2 +1,3 @@\n+x\n a\n-b\n+c")).toBe("a\nb");
    expect(baseText("a\nc", "@@ -1,2 +1,2 @@\n a\n-b\n+z")).toBeUndefined(); // not a patch of this head
  });
});

const CSPROJ = `<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="Serilog" Version="4.0.1" />
    <packagereference include="Dapper">
      <Version>2.1.35</Version>
    </packagereference>
    <PackageReference Include="Roslynator.Analyzers" Version="4.12.4">
      <PrivateAssets>all</PrivateAssets>
    </PackageReference>
    <PackageReference Include="Coverlet.Collector" Version="6.0.2" PrivateAssets="compile;ALL" />
    <PackageReference Include="Polly" Version="8.4.0" PrivateAssets="contentfiles" />
    <PackageReference Update="Newtonsoft.Json" VersionOverride="13.0.3" />
  </ItemGroup>
  <Choose>
    <When Condition="'$(TargetFramework)' == 'net48'">
      <ItemGroup>
        <PackageReference Include="System.Text.Json" Version="8.0.4" />
      </ItemGroup>
    </When>
  </Choose>
</Project>`;

describe("NuGet", () => {
  it("csproj: PackageReference with a Version attribute or element; PrivateAssets all is dev; nested items count", () => {
    expect(nugetParser.declarations(CSPROJ, "src/App/App.csproj")?.map((d) => [d.name, d.version, d.scope])).toEqual([
      ["Serilog", "4.0.1", "runtime"],
      ["Roslynator.Analyzers", "4.12.4", "dev"],
      ["Coverlet.Collector", "6.0.2", "dev"],
      ["Polly", "8.4.0", "runtime"],
      ["Newtonsoft.Json", "13.0.3", "runtime"],
      ["System.Text.Json", "8.0.4", "runtime"],
    ]);
  });

  it("packages.config: developmentDependency is dev; Directory.Packages.props: central versions runtime, global references dev", () => {
    const config = `<?xml version="1.0" encoding="utf-8"?>
<packages>
  <package id="log4net" version="2.0.17" targetFramework="net48" />
  <package id="NUnit" version="3.14.0" developmentDependency="true" />
</packages>`;
    expect(
      nugetParser.declarations(config, "packages.config")?.map((d) => [d.name, d.version, d.scope, d.line]),
    ).toEqual([
      ["log4net", "2.0.17", "runtime", 3],
      ["NUnit", "3.14.0", "dev", 4],
    ]);
    const props = `<Project>
  <ItemGroup>
    <PackageVersion Include="Dapper" Version="2.1.35" />
    <GlobalPackageReference Include="Nerdbank.GitVersioning" Version="3.6.133" />
    <GlobalPackageReference Include="Shipped.Always" Version="1.0.0" PrivateAssets="none" />
  </ItemGroup>
</Project>`;
    expect(nugetParser.declarations(props, "Directory.Packages.props")?.map((d) => [d.name, d.scope])).toEqual([
      ["Dapper", "runtime"],
      ["Nerdbank.GitVersioning", "dev"],
      ["Shipped.Always", "runtime"],
    ]);
  });

  it("names compare without case, and every kind of NuGet file is read", () => {
    expect(nugetParser.normalizeName("Newtonsoft.Json")).toBe(nugetParser.normalizeName("newtonsoft.json"));
    for (const path of ["src/App/App.csproj", "packages.config", "Directory.Packages.props"])
      expect(manifestParserFor(path)?.kind, path).toBe("NuGet");
    expect(manifestParserFor("src/App/App.csproj.user")).toBeUndefined();
  });
});
