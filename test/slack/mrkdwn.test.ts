import { describe, expect, it } from "vitest";
import { escapeMrkdwn, mentionOrName, mrkdwnLink, truncateMrkdwn, truncatePlain } from "../../src/slack/mrkdwn.js";

describe("mrkdwn helpers", () => {
  it("truncates to the limit with an ellipsis, never inside an entity or a link", () => {
    expect(truncateMrkdwn("abc", 3)).toBe("abc");
    expect(truncateMrkdwn("x".repeat(5000), 3000)).toHaveLength(3000);
    const entity = truncateMrkdwn(`${"a".repeat(8)}&amp;tail`, 11);
    expect(entity).toBe(`${"a".repeat(8)}…`);
    const link = truncateMrkdwn(`see <https://github.com/acme/web/pull/12|the PR> now`, 20);
    expect(link).toBe("see …");
    expect(truncatePlain("😀😀😀", 4)).toBe("😀…");
  });

  it("escapes control characters and keeps links unbreakable", () => {
    expect(escapeMrkdwn("<!channel> & <@U1>")).toBe("&lt;!channel&gt; &amp; &lt;@U1&gt;");
    expect(mrkdwnLink("https://x/a|b>c", "l|abel")).toBe("<https://x/a%7Cb%3Ec|l¦abel>");
  });

  it("mentions Slack user ids and escapes other names", () => {
    expect(mentionOrName("U0123ABCD")).toBe("<@U0123ABCD>");
    expect(mentionOrName("alice <x>")).toBe("alice &lt;x&gt;");
  });
});
