import { describe, expect, it } from "vitest";
import { prepared } from "@/lib/db/prepared";

describe("prepared", () => {
  it("names a statement by its text: built again, the same name; another text, another name", () => {
    const text = (table: string) => `SELECT 1 FROM "${table}" WHERE id = $1`;
    const first = prepared(text("Run"), ["a"]);
    expect(first).toEqual({ name: expect.stringMatching(/^rm_[0-9a-f]{32}$/), text: text("Run"), values: ["a"] });
    expect(prepared(text("Run"), ["b"])).toEqual({ name: first.name, text: text("Run"), values: ["b"] });
    expect(prepared(text("Prompt"), ["a"]).name).not.toBe(first.name);
  });

  it("stops preparing new texts past its limit (a caller that built values into its text), still runs them", () => {
    const kept = prepared("SELECT 'kept'", []).name;
    for (let i = 0; i < 300; i++) prepared(`SELECT ${i}`, []);
    expect(prepared("SELECT 'one more'", [1])).toEqual({ text: "SELECT 'one more'", values: [1] });
    // One named before is still named.
    expect(prepared("SELECT 'kept'", []).name).toBe(kept);
  });
});
