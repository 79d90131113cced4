import { describe, expect, it } from "vitest";
import { parseChannelMap } from "../../src/slack/channel-map.js";

describe("parseChannelMap", () => {
  it("maps repositories to channels, case-insensitively, with a default", () => {
    const channelFor = parseChannelMap("acme/web=C1, acme/api=C2", "C0");
    expect(channelFor("acme/web")).toBe("C1");
    expect(channelFor("Acme/API")).toBe("C2");
    expect(channelFor("acme/other")).toBe("C0");
  });

  it("takes *= as the default and has none otherwise", () => {
    expect(parseChannelMap("acme/web=C1,*=C9")("x/y")).toBe("C9");
    expect(parseChannelMap("acme/web=C1")("x/y")).toBeUndefined();
    expect(parseChannelMap(undefined, "C5")("x/y")).toBe("C5");
  });

  it("refuses malformed entries", () => {
    expect(() => parseChannelMap("acme/web")).toThrow(/owner\/repo=<channel id>/);
    expect(() => parseChannelMap("acme=C1")).toThrow();
    expect(() => parseChannelMap("acme/web=#general")).toThrow();
    expect(() => parseChannelMap("", "general")).toThrow(/not a Slack channel id/);
  });
});
