import { describe, expect, it } from "vitest";
import { concat, join, known, OUTSIDE } from "../../../src/detectors/dataflow/flow-value.js";

describe("join's literal", () => {
  it("keeps both texts of a choice, once each: a text the other holds is not repeated", () => {
    const built = concat(known("SELECT a FROM t WHERE id = "), OUTSIDE);
    expect(join(built, known("SELECT a FROM t")).literal).toBe("SELECT a FROM t WHERE id = ");
    expect(join(known("FROM t"), built).literal).toBe("SELECT a FROM t WHERE id = ");
    expect(join(known("ls"), known("rm")).literal).toBe("ls rm");
    expect(join(known(""), known("rm")).literal).toBe("rm");
  });

  it("does not grow when a value is joined again and again with what it was built from (a loop's passes)", () => {
    let v = concat(known("SELECT * FROM t WHERE a = "), OUTSIDE);
    for (let i = 0; i < 50; i++) v = join(known("FROM t"), join(v, known("WHERE a = ")));
    expect(v.literal).toBe("SELECT * FROM t WHERE a = ");
    expect(v.outside).toBe(true);
  });
});
