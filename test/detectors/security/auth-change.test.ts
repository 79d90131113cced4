import { describe, expect, it } from "vitest";
import { authChangeDetector } from "../../../src/detectors/security/auth-change.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

describe("authChangeDetector", () => {
  it("raises one needs-more-context finding per auth file, at the first changed line", async () => {
    const patch = [
      "@@ -20,6 +20,6 @@ export function requireUser(req, res, next) {",
      "   const header = req.headers.authorization;",
      "   if (!header) return res.status(401).end();",
      "-  const claims = jwt.verify(token, secret, { algorithms: ['HS256'] });",
      "+  const claims = jwt.decode(token);",
      "+  req.user = claims;",
      "   next();",
    ].join("\n");
    const pr = buildPr({ files: [{ filename: "src/middleware/auth.ts", patch }] });
    const findings = await authChangeDetector.detect(detectContext(pr));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      policy: "SEC-03",
      specialty: "security",
      severity: "high",
      blocking: true,
      needs_more_context: true,
      file: "src/middleware/auth.ts",
      line: 22,
      detector: "auth-change",
    });
    expect(findings[0]?.message).toMatch(/weakened/);
    expect(findings[0]?.message).toMatch(/logged/);
  });

  it("recognises auth paths by word, including camelCase and renames, in files it cannot read by their code", async () => {
    const pr = buildPr({
      files: [
        { filename: "deploy/sessionStore.conf", patch: addedFilePatch(["ttl = 3600"]) },
        { filename: "config/login_page.yml", patch: addedFilePatch(["x: 1"]) },
        {
          filename: "config/new-name.yml",
          previousFilename: "config/passport-config.yml",
          status: "renamed",
          patch: addedFilePatch(["y: 2"]),
        },
        { filename: "config/authors/list.yml", patch: addedFilePatch(["authors: []"]) },
      ],
    });
    const files = (await authChangeDetector.detect(detectContext(pr))).map((f) => f.file);
    expect(files).toEqual(["deploy/sessionStore.conf", "config/login_page.yml", "config/new-name.yml"]);
  });

  it("in a file it reads by its code, the path alone is no finding: a decision must change", async () => {
    const pr = buildPr({
      files: [
        { filename: "src/services/sessionStore.ts", patch: addedFilePatch(["export const ttl = 3600;"]) },
        { filename: "app/users/login_view.py", patch: addedFilePatch(["x = 1"]) },
        { filename: "src/auth/guard.ts", patch: addedFilePatch(["const claims = jwt.decode(token);"]) },
      ],
    });
    const findings = await authChangeDetector.detect(detectContext(pr));
    expect(findings.map((f) => [f.file, f.line])).toEqual([["src/auth/guard.ts", 1]]);
  });

  it("flags auth-relevant lines in other files, including removed checks", async () => {
    const pr = buildPr({
      files: [
        {
          filename: "src/routes/admin.ts",
          patch: [
            "@@ -5,4 +5,3 @@",
            " const router = Router();",
            "-router.use(isAuthenticated);",
            " router.get('/stats', stats);",
            " export default router;",
          ].join("\n"),
        },
        {
          filename: "src/app.ts",
          patch: addedFilePatch([
            "app.use(express.json());",
            "app.use(session({ secret: cfg.secret, cookie: { maxAge: 86400000 } }));",
          ]),
        },
        {
          filename: "src/server.ts",
          patch: addedFilePatch(["app.listen(port, () => log.info({ port }, 'listening'));"]),
        },
        { filename: "src/users.py", patch: addedFilePatch(["hashed = bcrypt.hashpw(pw, bcrypt.gensalt())"]) },
      ],
    });
    const findings = await authChangeDetector.detect(detectContext(pr));
    expect(findings.map((f) => [f.file, f.line])).toEqual([
      ["src/routes/admin.ts", 6],
      ["src/app.ts", 2],
      ["src/users.py", 1],
    ]);
    expect(findings[0]?.message).toContain("isAuthenticated");
  });

  it("ignores tests, docs and unrelated code", async () => {
    const pr = buildPr({
      files: [
        { filename: "test/auth/login.test.ts", patch: addedFilePatch(["expect(jwt.verify(t, k)).toBeTruthy();"]) },
        { filename: "docs/authentication.md", patch: addedFilePatch(["Use bcrypt for passwords."]) },
        { filename: "src/util/id.ts", patch: addedFilePatch(["export const id = () => crypto.randomUUID();"]) },
        { filename: "src/auth/logo.png", status: "added" },
      ],
    });
    const findings = await authChangeDetector.detect(detectContext(pr));
    expect(findings.map((f) => f.file)).toEqual(["src/auth/logo.png"]);
    expect(findings[0]?.line).toBeUndefined();
    expect(await authChangeDetector.detect(detectContext(buildPr()))).toEqual([]);
  });
});
