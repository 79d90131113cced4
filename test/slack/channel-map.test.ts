import { describe, expect, it } from "vitest";
import { channelFor } from "../../src/slack/channel-map.js";
import { loadSettings } from "../../src/settings/index.js";

const mapOf = (env: Record<string, string>) => loadSettings(env).slack.channels;

describe("channelFor", () => {
  it("maps repositories to channels, case-insensitively, with a default", () => {
    const forRepo = channelFor(mapOf({ GATE_SLACK_CHANNELS: "acme/web=C1, Acme/Api=C2", GATE_SLACK_CHANNEL: "C0" }));
    expect(forRepo("acme/web")).toBe("C1");
    expect(forRepo("acme/API")).toBe("C2");
    expect(forRepo("acme/other")).toBe("C0");
  });

  it("takes *= as the default and has none otherwise", () => {
    expect(channelFor(mapOf({ GATE_SLACK_CHANNELS: "acme/web=C1,*=C9" }))("x/y")).toBe("C9");
    expect(channelFor(mapOf({ GATE_SLACK_CHANNELS: "acme/web=C1" }))("x/y")).toBeUndefined();
    expect(channelFor(mapOf({ GATE_SLACK_CHANNEL: "C5" }))("x/y")).toBe("C5");
  });
});
