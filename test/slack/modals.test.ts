import { describe, expect, it } from "vitest";
import {
  INFO_MODAL,
  REJECT_MODAL,
  infoModal,
  inputValue,
  parseModalMetadata,
  rejectModal,
} from "../../src/slack/modals.js";

const meta = { reviewId: "r-1", channel: "C1", ts: "1.2" };

describe("modals", () => {
  it("reject modal: callback id, required reason, metadata round-trips", () => {
    const view = rejectModal({ pr: "acme/web#12", title: "t" }, meta);
    expect(view.callback_id).toBe(REJECT_MODAL);
    const input = view.blocks.find((b) => b.type === "input");
    expect(input).toMatchObject({
      block_id: "reason",
      optional: false,
      element: { type: "plain_text_input", action_id: "reason_input" },
    });
    expect(parseModalMetadata(view.private_metadata)).toEqual(meta);
    expect(view.title.text.length).toBeLessThanOrEqual(24);
  });

  it("info modal: callback id, question input, cycles left", () => {
    const view = infoModal({ pr: "acme/web#12", title: "t" }, meta, 1);
    expect(view.callback_id).toBe(INFO_MODAL);
    expect(JSON.stringify(view.blocks)).toContain("(1 left)");
    expect(view.title.text.length).toBeLessThanOrEqual(24);
  });

  it("refuses metadata this app did not write", () => {
    expect(parseModalMetadata("not json")).toBeUndefined();
    expect(parseModalMetadata(JSON.stringify({ reviewId: "", channel: "C", ts: "1" }))).toBeUndefined();
    expect(parseModalMetadata(undefined)).toBeUndefined();
  });

  it("reads trimmed input values", () => {
    expect(inputValue({ reason: { reason_input: { value: "  why  " } } }, "reason", "reason_input")).toBe("why");
    expect(inputValue({ reason: { reason_input: { value: null } } }, "reason", "reason_input")).toBeUndefined();
  });
});
