import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { SETTING_NAMES } from "../../src/settings/index.js";

const ManifestSchema = z.object({
  _metadata: z.object({ major_version: z.number() }),
  display_information: z.object({ name: z.string().min(1).max(35), description: z.string().max(140) }),
  features: z.object({
    app_home: z.object({ home_tab_enabled: z.boolean(), messages_tab_enabled: z.boolean() }),
    bot_user: z.object({ display_name: z.string().min(1) }),
    slash_commands: z.array(
      z.object({ command: z.string(), url: z.string(), description: z.string(), usage_hint: z.string() }),
    ),
  }),
  oauth_config: z.object({ scopes: z.object({ bot: z.array(z.string()) }) }),
  settings: z.object({
    event_subscriptions: z.object({ request_url: z.string(), bot_events: z.array(z.string()) }),
    interactivity: z.object({ is_enabled: z.boolean(), request_url: z.string() }),
    socket_mode_enabled: z.boolean(),
  }),
});

describe("manifest.yml", () => {
  const raw = readFileSync(new URL("../../manifest.yml", import.meta.url), "utf8");
  const manifest = ManifestSchema.parse(parse(raw));

  it("asks for exactly the scopes the app uses", () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([
      "channels:history",
      "chat:write",
      "commands",
      "groups:history",
      "usergroups:read",
      "users.profile:read",
    ]);
  });

  it("declares /gate, interactivity and app_home_opened on /slack/events", () => {
    const gate = manifest.features.slash_commands.find((c) => c.command === "/gate");
    expect(gate?.url).toBe("https://YOUR-HOST/slack/events");
    expect(gate?.usage_hint).toContain("status");
    expect(manifest.settings.interactivity).toEqual({
      is_enabled: true,
      request_url: "https://YOUR-HOST/slack/events",
    });
    expect(manifest.settings.event_subscriptions.bot_events).toEqual(["app_home_opened"]);
    expect(manifest.features.app_home).toMatchObject({ home_tab_enabled: true, messages_tab_enabled: false });
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it("names in its comments only settings the gate reads, and the ones a Slack install needs", () => {
    const comments = raw
      .split("\n")
      .filter((l) => l.trim().startsWith("#"))
      .join("\n");
    const named = new Set(
      [...comments.matchAll(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b|\bPORT\b|\bUSER\b/g)].map((m) => m[0]),
    );
    for (const name of named) expect(SETTING_NAMES, name).toContain(name);
    for (const needed of [
      "SLACK_BOT_TOKEN",
      "SLACK_SIGNING_SECRET",
      "SLACK_APP_TOKEN",
      "GATE_SLACK_CHANNEL",
      "GATE_APPROVERS",
      "PORT",
    ]) {
      expect(named, needed).toContain(needed);
    }
  });
});
