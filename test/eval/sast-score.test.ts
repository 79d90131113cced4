import { describe, expect, it } from "vitest";
import { splitOf } from "../../src/eval/held-split.js";
import {
  FIX_WINDOW,
  findingMatches,
  fixLinesOf,
  nearFix,
  rates,
  type SastCase,
  sastTable,
  scoreCase,
} from "../../src/eval/sast-score.js";
import type { FixtureFinding } from "../../src/eval/score.js";

function kase(id: string, category: string, label: SastCase["label"], extra: Partial<SastCase> = {}): SastCase {
  const policy = ["sqli", "cmdi", "codeinj"].includes(category) ? "SEC-02" : "SEC-05";
  return { id, suite: "s", language: "java", category, policy, label, path: "src/T.java", ...extra };
}

const sql: FixtureFinding = {
  policy: "SEC-02",
  file: "src/T.java",
  line: 4,
  message: "SQL text built from a non-constant value reaches a query call",
};
const shell: FixtureFinding = {
  policy: "SEC-02",
  file: "src/T.java",
  line: 9,
  message: "A shell command built from a non-constant value reaches a shell (exec/execSync, os.system)",
};
const fixedIv: FixtureFinding = {
  policy: "SEC-05",
  message: "Cipher.init: a constant IV, nonce or salt. It must be random per encryption or hash (SecureRandom)",
};

describe("findingMatches", () => {
  it("needs the category's policy and words: a SQL finding does not flag a command-injection case", () => {
    expect(findingMatches(kase("a", "sqli", "vulnerable"), sql)).toBe(true);
    expect(findingMatches(kase("a", "cmdi", "vulnerable"), sql)).toBe(false);
    expect(findingMatches(kase("a", "cmdi", "vulnerable"), shell)).toBe(true);
    // The right words under another policy are not a hit.
    expect(findingMatches(kase("a", "sqli", "vulnerable"), { ...sql, policy: "SEC-03" })).toBe(false);
  });

  it("does not read a fixed-IV note as weak hashing, a weak cipher or weak randomness", () => {
    for (const category of ["hash", "crypto", "weakrand"]) {
      expect(findingMatches(kase("a", category, "vulnerable"), fixedIv)).toBe(false);
    }
    const weakHash = { policy: "SEC-05", message: "java.security.MessageDigest.getInstance: MD5/SHA-1 are broken" };
    const weakCipher = {
      policy: "SEC-05",
      message: "javax.crypto.Cipher.getInstance: a broken cipher or mode (DES, ECB)",
    };
    const random = { policy: "SEC-05", message: "java.util.Random.nextInt (a predictable generator) produces a token" };
    expect(findingMatches(kase("a", "hash", "vulnerable"), weakHash)).toBe(true);
    expect(findingMatches(kase("a", "crypto", "vulnerable"), weakCipher)).toBe(true);
    expect(findingMatches(kase("a", "crypto", "vulnerable"), weakHash)).toBe(false);
    expect(findingMatches(kase("a", "weakrand", "vulnerable"), random)).toBe(true);
    expect(findingMatches(kase("a", "hash", "vulnerable"), random)).toBe(false);
  });

  it("takes the file's path out of the message and ignores findings on other files", () => {
    const c = kase("a", "codeinj", "vulnerable", { path: "testcode/T.py" });
    // "testcode/T.py" says "code", but the finding is about SQL.
    expect(findingMatches(c, { policy: "SEC-02", file: "testcode/T.py", message: "testcode/T.py builds SQL" })).toBe(
      false,
    );
    expect(
      findingMatches(c, { policy: "SEC-02", file: "testcode/T.py", message: "Code evaluated from a string" }),
    ).toBe(true);
    expect(findingMatches(c, { policy: "SEC-02", file: "other.py", message: "Code evaluated from a string" })).toBe(
      false,
    );
  });

  it("an unknown category is never flagged", () => {
    expect(findingMatches(kase("a", "xss", "vulnerable"), { ...sql, message: "SQL and everything" })).toBe(false);
  });
});

describe("scoreCase and rates", () => {
  it("flags a case on its matching findings and keeps them as hits", () => {
    const s = scoreCase(kase("x1", "sqli", "vulnerable"), [shell, sql]);
    expect(s.flagged).toBe(true);
    expect(s.hits).toEqual([sql]);
    expect(s.split).toBe(splitOf("x1"));
    expect(scoreCase(kase("x2", "sqli", "vulnerable"), [shell]).flagged).toBe(false);
  });

  it("draws the split on the group, so both files of one fix fall on the same side", () => {
    const ids = Array.from({ length: 40 }, (_, i) => `fix-${i}`);
    // Some pair of ids splits apart on its own...
    const apart = ids.find((id) => splitOf(`${id}-vulnerable`) !== splitOf(`${id}-safe`));
    expect(apart).toBeDefined();
    const group = apart ?? "";
    const vulnerable = scoreCase(kase(`${group}-vulnerable`, "cmdi", "vulnerable", { group }), []);
    const safe = scoreCase(kase(`${group}-safe`, "cmdi", "safe", { group }), []);
    // ...and together with its group.
    expect([vulnerable.split, safe.split]).toEqual([splitOf(group), splitOf(group)]);
  });

  it("TPR is flagged vulnerable over vulnerable, FPR flagged safe over safe, score their difference", () => {
    const r = rates([
      { label: "vulnerable", flagged: true },
      { label: "vulnerable", flagged: true },
      { label: "vulnerable", flagged: false },
      { label: "vulnerable", flagged: true },
      { label: "safe", flagged: true },
      { label: "safe", flagged: false },
    ]);
    expect(r).toEqual({ cases: 6, vulnerable: 4, safe: 2, tp: 3, fp: 1, tpr: 0.75, fpr: 0.5, score: 0.25 });
    expect(rates([{ label: "safe", flagged: false }])).toMatchObject({ tpr: null, fpr: 0, score: null });
    expect(rates([])).toMatchObject({ cases: 0, tpr: null, fpr: null, score: null });
  });
});

describe("splitOf", () => {
  it("holds about a third aside, always the same for an id", () => {
    const ids = Array.from({ length: 3000 }, (_, i) => `case-${i}`);
    const held = ids.filter((id) => splitOf(id) === "held").length;
    expect(held / ids.length).toBeGreaterThan(0.28);
    expect(held / ids.length).toBeLessThan(0.38);
    expect(ids.map(splitOf)).toEqual(ids.map(splitOf));
  });
});

describe("sastTable", () => {
  it("one row per suite, language, category and policy, sorted", () => {
    const scored = [
      scoreCase(kase("p1", "sqli", "vulnerable", { suite: "py", language: "python" }), [sql]),
      scoreCase(kase("j1", "sqli", "vulnerable"), [sql]),
      scoreCase(kase("j2", "sqli", "safe"), [sql]),
      scoreCase(kase("j3", "cmdi", "vulnerable"), []),
      scoreCase(kase("j4", "cmdi", "safe"), []),
    ];
    const table = sastTable(scored);
    expect(table.map((r) => [r.suite, r.language, r.category, r.policy])).toEqual([
      ["py", "python", "sqli", "SEC-02"],
      ["s", "java", "cmdi", "SEC-02"],
      ["s", "java", "sqli", "SEC-02"],
    ]);
    expect(table[2]).toMatchObject({ cases: 2, tp: 1, fp: 1, tpr: 1, fpr: 1, score: 0 });
    expect(table[1]).toMatchObject({ cases: 2, tp: 0, fp: 0, tpr: 0, fpr: 0, score: 0 });
  });
});

describe("fix lines", () => {
  it("reads the lines a fix touched from a -U0 diff: changed or removed before, added or changed after", () => {
    const diff = [
      "diff --git a/db.js b/db.js",
      "--- a/db.js",
      "+++ b/db.js",
      // line 4 replaced by one line
      "@@ -4 +4 @@",
      '-q("SELECT * FROM t WHERE id = \'" + id + "\'")',
      '+q("SELECT * FROM t WHERE id = ?", [id])',
      // lines 10-11 removed
      "@@ -10,2 +9,0 @@",
      "-a",
      "-b",
      // two lines added after old line 20
      "@@ -20,0 +19,2 @@",
      "+c",
      "+d",
    ].join("\n");
    expect(fixLinesOf(diff)).toEqual({ before: [4, 10, 11, 20], after: [4, 19, 20] });
    // An addition at the top of the file points at line 1 of the old file.
    expect(fixLinesOf("@@ -0,0 +1,2 @@\n+x\n+y")).toEqual({ before: [1], after: [1, 2] });
    expect(fixLinesOf("")).toEqual({ before: [], after: [] });
  });

  it("a finding counts near a fix line within FIX_WINDOW lines, and never without a line", () => {
    expect(FIX_WINDOW).toBe(3);
    expect(nearFix({ ...sql, line: 7 }, [4])).toBe(true);
    expect(nearFix({ ...sql, line: 1 }, [4])).toBe(true);
    expect(nearFix({ ...sql, line: 8 }, [4])).toBe(false);
    expect(nearFix({ ...sql, line: 0 }, [4])).toBe(false);
    const { line: _, ...noLine } = sql;
    expect(nearFix(noLine, [4])).toBe(false);
  });

  it("a vulnerable file is found at the fix only by a finding near the lines the fix changed", () => {
    // The fix changed line 40; the gate flags line 4 (other SQL, left as it was) and line 42.
    const at = scoreCase(kase("v1", "sqli", "vulnerable", { fixLines: [40] }), [{ ...sql, line: 4 }]);
    expect(at).toMatchObject({ flagged: true, flaggedAtFix: false });
    const near = scoreCase(kase("v2", "sqli", "vulnerable", { fixLines: [40] }), [
      { ...sql, line: 4 },
      { ...sql, line: 42 },
    ]);
    expect(near).toMatchObject({ flagged: true, flaggedAtFix: true });
    // A finding of another category near the fix does not count.
    expect(scoreCase(kase("v3", "sqli", "vulnerable", { fixLines: [9] }), [{ ...shell, line: 9 }]).flaggedAtFix).toBe(
      false,
    );
    // A suite case without fix lines has no located verdict.
    expect(scoreCase(kase("v4", "sqli", "vulnerable"), [sql]).flaggedAtFix).toBeUndefined();
  });

  it("a fixed file that still splices other SQL is a false alarm by file but not at the fix lines", () => {
    const kept = scoreCase(kase("s1", "sqli", "safe", { fixLines: [40] }), [{ ...sql, line: 90 }]);
    expect(kept).toMatchObject({ flagged: true, flaggedAtFix: false });
    const onFix = scoreCase(kase("s2", "sqli", "safe", { fixLines: [40] }), [{ ...sql, line: 40 }]);
    expect(onFix).toMatchObject({ flagged: true, flaggedAtFix: true });
    const table = sastTable([
      scoreCase(kase("v", "sqli", "vulnerable", { fixLines: [40] }), [{ ...sql, line: 41 }]),
      kept,
    ]);
    expect(table[0]).toMatchObject({ tp: 1, fp: 1, score: 0 });
    expect(table[0]?.fixLines).toEqual({ cases: 2, vulnerable: 1, safe: 1, tp: 1, fp: 0, tpr: 1, fpr: 0, score: 1 });
    // A row with a case that has no fix lines gets no fix-lines figure.
    const mixed = sastTable([kept, scoreCase(kase("s3", "sqli", "safe"), [])]);
    expect(mixed[0]?.fixLines).toBeUndefined();
  });
});
