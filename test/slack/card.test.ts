import { describe, expect, it } from "vitest";
import type { types } from "@slack/bolt";
import { renderCard, renderHome, renderStatusText } from "../../src/slack/card.js";
import { HEAD_SHA, makeFinding, makeResult, makeReview } from "./helpers/builders.js";

type KnownBlock = types.KnownBlock;

/** Every mrkdwn/plain text in the blocks, with where it was. */
function texts(blocks: KnownBlock[]): { kind: string; text: string }[] {
  const out: { kind: string; text: string }[] = [];
  for (const b of blocks) {
    if (b.type === "section" && b.text) out.push({ kind: "section", text: b.text.text });
    if (b.type === "header") out.push({ kind: "header", text: b.text.text });
    if (b.type === "context")
      for (const e of b.elements)
        if ("text" in e && typeof e.text === "string") out.push({ kind: "context", text: e.text });
  }
  return out;
}

function buttons(blocks: KnownBlock[]): types.Button[] {
  return blocks.flatMap((b) =>
    b.type === "actions" ? b.elements.filter((e): e is types.Button => e.type === "button") : [],
  );
}

const all = (blocks: KnownBlock[]) =>
  texts(blocks)
    .map((t) => t.text)
    .join("\n");

describe("renderCard", () => {
  it("stays within Block Kit limits with 200 long findings and long investigations", () => {
    const findings = Array.from({ length: 200 }, (_, i) =>
      makeFinding({
        policy: `SEC-0${(i % 5) + 1}`,
        blocking: i % 3 === 0,
        message: `problem ${i} `.repeat(400),
        file: `src/${"deep/".repeat(80)}f${i}.ts`,
        line: i + 1,
      }),
    );
    const investigations = Array.from({ length: 6 }, () => ({
      status: "inconclusive" as const,
      question: "q".repeat(5000),
      answers: Array.from({ length: 20 }, () => "a <b> & ".repeat(500)),
      evidence: Array.from({ length: 20 }, (_, j) => ({
        file: `src/x${j}.ts`,
        line: j + 1,
        excerpt: "`code` ".repeat(300),
      })),
      tool_calls: 12,
      chars_read: 99999,
      reason: "r".repeat(4000),
    }));
    const review = makeReview({ title: "T".repeat(5000) });
    const { text, blocks } = renderCard({
      review,
      result: makeResult({ findings, investigations }),
      checkRunUrl: "https://github.com/acme/web/runs/9",
    });
    expect(blocks.length).toBeLessThanOrEqual(50);
    for (const t of texts(blocks)) {
      expect(t.text.length).toBeLessThanOrEqual(t.kind === "header" ? 150 : 3000);
    }
    const total = texts(blocks).reduce((n, t) => n + t.text.length, 0);
    expect(total).toBeLessThan(12_000);
    expect(text.length).toBeLessThanOrEqual(300);
    expect(all(blocks)).toContain("+190 more findings: <https://github.com/acme/web/runs/9|see all in the check run>");
    for (const b of buttons(blocks)) {
      expect(b.value).toBe("r-0001");
      expect(b.text.text.length).toBeLessThanOrEqual(75);
    }
  });

  it("links the title, the commit and each finding's line at the head SHA", () => {
    const { blocks } = renderCard({ review: makeReview(), result: makeResult() });
    const body = all(blocks);
    expect(body).toContain("*<https://github.com/acme/web/pull/12|Refactor session validation>*");
    expect(body).toContain(`<https://github.com/acme/web/commit/${HEAD_SHA}|3f9a1c2>`);
    expect(body).toContain(
      `<https://github.com/acme/web/blob/${HEAD_SHA}/src/auth/session.ts#L42|src/auth/session.ts:42>`,
    );
    expect(body).toContain("*SEC-03* · high · :no_entry: *blocking*");
    expect(body).toContain("*Risk* 72/100 (auth): touches auth code; changes session handling");
    expect(body).toContain("blocking finding");
    expect(body).toContain("Budget: investigation cycles 1 of 2 · 5 tool calls · 3 model calls · $0.0123");
  });

  it("shows Approve (with confirm), Reject, Request info, Approve with a note and Re-run while waiting", () => {
    const { blocks } = renderCard({ review: makeReview(), result: makeResult() });
    const b = buttons(blocks);
    expect(b.map((x) => x.action_id)).toEqual([
      "gate_approve",
      "gate_reject",
      "gate_request_info",
      "gate_approve_note",
      "gate_rerun",
    ]);
    expect(b[0]?.style).toBe("primary");
    expect(b[0]?.confirm?.confirm?.text).toBe("Approve");
    expect(b[1]?.style).toBe("danger");
  });

  it("drops Request info and says so when the investigation budget is spent", () => {
    const result = makeResult({ budget: { ...makeResult().budget, cycles_used: 2, cycles_max: 2 } });
    const { blocks } = renderCard({ review: makeReview(), result });
    expect(buttons(blocks).map((x) => x.action_id)).toEqual([
      "gate_approve",
      "gate_reject",
      "gate_approve_note",
      "gate_rerun",
    ]);
    expect(all(blocks)).toContain("The investigation budget is spent (2 of 2 cycles)");
  });

  it("a closed PR's card says so, with no buttons", () => {
    const { blocks, text } = renderCard({
      review: makeReview({ status: "closed" }),
      result: makeResult({ status: "closed" }),
    });
    expect(buttons(blocks)).toHaveLength(0);
    expect(all(blocks)).toContain("The pull request was closed; this review ended without a decision.");
    expect(text).toContain("closed without a decision");
  });

  it("a superseded card links to the card that replaced it; a re-run is named as such", () => {
    const { blocks } = renderCard({
      review: makeReview({ status: "superseded", supersededBy: "r-0002" }),
      result: makeResult({ status: "superseded", superseded_by: "r-0002" }),
      successorUrl: "https://slack.com/app_redirect?channel=C1&message_ts=1.2",
    });
    expect(all(blocks)).toContain(
      "Superseded by a re-run; this review no longer gates the PR. <https://slack.com/app_redirect?channel=C1&message_ts=1.2|Open the new card>.",
    );
  });

  it("a superseded card with no newer card links to the PR's checks, where the new head's state shows", () => {
    const sha = "b".repeat(40);
    const { blocks } = renderCard({
      review: makeReview({ status: "superseded", supersededBy: sha }),
      result: makeResult({ status: "superseded", superseded_by: sha }),
      checkRunUrl: "https://github.com/acme/web/pull/7/checks",
    });
    expect(all(blocks)).toContain("<https://github.com/acme/web/pull/7/checks|See the PR's checks> for the new head.");
    const carried = renderCard({
      review: makeReview({ status: "superseded", supersededBy: sha }),
      result: makeResult({ status: "superseded", superseded_by: sha }),
      checkRunUrl: "https://github.com/acme/web/pull/7/checks",
      successorUrl: "https://slack.com/app_redirect?channel=C1&message_ts=3.4",
      successorLabel: "See the decision carried to it",
    });
    expect(all(carried.blocks)).toContain("|See the decision carried to it>.");
    expect(all(carried.blocks)).not.toContain("See the PR's checks");
  });

  it("names the decider by display name when it is known", () => {
    const { blocks } = renderCard({
      review: makeReview({ status: "done" }),
      result: makeResult({
        status: "done",
        route: "human_approved",
        decision: { kind: "approve", by: "U1", at: "2026-03-02T09:30:00Z", note: "ok" },
      }),
      personName: (id) => (id === "U1" ? "Dana Smith (@dana)" : undefined),
    });
    expect(all(blocks)).toContain("*Approved* by Dana Smith (@dana) at");
    expect(all(blocks)).not.toContain("<@U1>");
  });

  it("shows progress and no buttons while investigating", () => {
    const { blocks } = renderCard({
      review: makeReview(),
      result: makeResult(),
      progress: { reviewId: "r-0001", turn: 2, tool_calls: 7, chars_read: 5120, cost_usd: 0.02 },
    });
    expect(buttons(blocks)).toHaveLength(0);
    expect(all(blocks)).toContain("Investigating… 7 tool calls, 5120 chars read, $0.0200");
  });

  it("shows who decided, when and why, and no buttons", () => {
    const result = makeResult({
      status: "done",
      route: "human_rejected",
      decision: { kind: "reject", by: "U42", at: "2026-03-02T09:30:00.000Z", note: "GPL <code>" },
    });
    const { blocks, text } = renderCard({ review: makeReview({ status: "done" }), result });
    expect(buttons(blocks)).toHaveLength(0);
    expect(all(blocks)).toContain(
      ":x: *Rejected* by <@U42> at <!date^1772443800^{date_short_pretty} at {time}|2026-03-02T09:30:00.000Z>: GPL &lt;code&gt;",
    );
    expect(text).toContain("rejected");
  });

  it("shows superseded with the new commit and no buttons", () => {
    const newSha = "a".repeat(40);
    const { blocks } = renderCard({
      review: makeReview({ status: "superseded", supersededBy: newSha }),
      result: makeResult({ status: "superseded" }),
    });
    expect(buttons(blocks)).toHaveLength(0);
    expect(all(blocks)).toContain(`Superseded by <https://github.com/acme/web/commit/${newSha}|aaaaaaa>`);
  });

  it("escapes untrusted text so it cannot mention or link", () => {
    const review = makeReview({ title: "<!channel> pwn | <https://evil|click>" });
    const result = makeResult({ findings: [makeFinding({ message: "<@U999> & <!here>" })] });
    const body = all(renderCard({ review, result }).blocks);
    expect(body).not.toContain("<!channel>");
    expect(body).not.toContain("<!here>");
    expect(body).not.toContain("<@U999>");
    expect(body).toContain("&lt;@U999&gt; &amp; &lt;!here&gt;");
  });

  it("shows investigations' answers and evidence with file:line links", () => {
    const result = makeResult({
      investigations: [
        {
          status: "resolved",
          question: "Is expiry still checked?",
          answers: ["Yes, in middleware"],
          evidence: [{ file: "src/mw.ts", line: 17, excerpt: "if (exp < now)" }],
          tool_calls: 3,
          chars_read: 900,
          reason: "",
        },
      ],
    });
    const body = all(renderCard({ review: makeReview(), result }).blocks);
    expect(body).toContain("*Investigation* (resolved): Is expiry still checked?");
    expect(body).toContain("• Yes, in middleware");
    expect(body).toContain(
      `<https://github.com/acme/web/blob/${HEAD_SHA}/src/mw.ts#L17|src/mw.ts:17> \`if (exp &lt; now)\``,
    );
  });
});

describe("renderStatusText", () => {
  it("summarises state, findings and budget in short mrkdwn", () => {
    const text = renderStatusText(makeResult(), makeReview({ slackChannel: "C1", slackTs: "1.2" }));
    expect(text).toContain("*acme/web#12*");
    expect(text).toContain("Status: waiting for human · route: human");
    expect(text).toContain("• SEC-03 high blocking `src/auth/session.ts:42`");
    expect(text).toContain("Budget: cycles 1/2 · 5 tool calls · 3 model calls · 1200 in / 300 out tokens · $0.0123");
    expect(text).toContain("<https://slack.com/app_redirect?channel=C1&message_ts=1.2|Open the card>");
    expect(text.length).toBeLessThanOrEqual(3000);
  });

  it("and the card say what the detectors could not read", () => {
    const coverage = {
      complete: false,
      read: [{ by: ["credentials"], language: "typescript", files: ["src/a.ts"] }],
      unread: [
        {
          file: "cgi-bin/run.pl",
          kind: "code" as const,
          language: "perl",
          reason: "language" as const,
          detail: "perl: no detector reads this language",
          read_by_model: false,
        },
      ],
      exempt: [],
    };
    const result = makeResult({ coverage, escalation: { reason: "not_inspected", detail: "cgi-bin/run.pl" } });
    const text = renderStatusText(result);
    expect(text).toContain("Coverage: Read 1 of 2 changed files that need reading.");
    expect(text).toContain("Not read: cgi-bin/run.pl (perl: no detector reads this language)");
    expect(all(renderCard({ review: makeReview(), result }).blocks as KnownBlock[])).toContain(
      "Not read: cgi-bin/run.pl (perl: no detector reads this language)",
    );
  });
});

describe("renderHome", () => {
  it("lists waiting reviews oldest first with links to their cards", () => {
    const newer = makeReview({
      id: "r-new",
      pr: "acme/api#3",
      title: "Newer",
      createdAt: "2026-03-03T00:00:00Z",
      slackChannel: "C2",
      slackTs: "2.3",
    });
    const older = makeReview({ id: "r-old", title: "Older", createdAt: "2026-03-01T00:00:00Z" });
    const view = renderHome([newer, older]);
    expect(view.type).toBe("home");
    const body = all(view.blocks as KnownBlock[]);
    expect(body.indexOf("Older")).toBeLessThan(body.indexOf("Newer"));
    expect(body).toContain("<https://slack.com/app_redirect?channel=C2&message_ts=2.3|open the card>");
  });

  it("stays within 100 blocks with many reviews, and says when nothing waits", () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      makeReview({ id: `r-${i}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() }),
    );
    const view = renderHome(many);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(all(view.blocks as KnownBlock[])).toContain("+255 more waiting");
    expect(all(renderHome([]).blocks as KnownBlock[])).toContain("Nothing is waiting for a decision.");
  });
});

describe("renderCard of an emergency change", () => {
  const pass = { label: "emergency", since: "2026-03-02T10:15:00Z", due_at: "2026-03-03T10:15:00Z", overdue: false };

  it("says EMERGENCY with the due time and keeps the buttons while it waits", () => {
    const { blocks } = renderCard({ review: makeReview(), result: makeResult({ emergency: pass }) });
    expect(all(blocks)).toContain("EMERGENCY, approval due");
    expect(all(blocks)).toMatch(
      /\*EMERGENCY\*: the `emergency` label let the check pass; a person's approval is due by <!date\^1772532900\^/,
    );
    expect(buttons(blocks).length).toBeGreaterThan(0);
  });

  it("says EMERGENCY OVERDUE once overdue, still with the buttons", () => {
    const { blocks } = renderCard({
      review: makeReview(),
      result: makeResult({ emergency: { ...pass, overdue: true } }),
    });
    expect(all(blocks)).toContain("EMERGENCY OVERDUE");
    expect(buttons(blocks).length).toBeGreaterThan(0);
  });

  it("says nothing of an emergency without a pass", () => {
    const { blocks } = renderCard({ review: makeReview(), result: makeResult() });
    expect(all(blocks)).not.toContain("EMERGENCY");
  });
});
