import { describe, expect, it } from "vitest";
import { parsePromptFile } from "@/lib/prompts/parse";

const file = (frontmatter: string, body = "# Task\n\nDo it.\n") => `---\n${frontmatter}\n---\n\n${body}`;

describe("parsePromptFile: valid files", () => {
  it("reads every field and the body", () => {
    const text = file("number: 3\ntitle: Add login page\nstatus: in_progress\npriority: 1\ndependencies: [1, 2]");
    expect(parsePromptFile("03-add-login-page.md", text)).toEqual({
      ok: true,
      prompt: {
        number: 3,
        title: "Add login page",
        status: "in_progress",
        priority: 1,
        dependencies: [1, 2],
        body: "# Task\n\nDo it.\n",
      },
    });
  });

  it("applies defaults: status pending, priority 3, no dependencies", () => {
    expect(parsePromptFile("05-x.md", file("number: 5\ntitle: X"))).toMatchObject({
      ok: true,
      prompt: { status: "pending", priority: 3, dependencies: [] },
    });
  });

  it("takes the number from the file name when the frontmatter has none", () => {
    expect(parsePromptFile("12-fix-bug.md", file("title: Fix bug"))).toMatchObject({ ok: true, prompt: { number: 12 } });
  });

  it("accepts a file name without a number prefix when the frontmatter has one", () => {
    expect(parsePromptFile("notes.md", file("number: 4\ntitle: T"))).toMatchObject({ ok: true, prompt: { number: 4 } });
  });

  it("reads a block-style dependency list and an empty `dependencies:`", () => {
    expect(parsePromptFile("03-a.md", file("title: A\ndependencies:\n  - 1\n  - 2"))).toMatchObject({
      ok: true,
      prompt: { dependencies: [1, 2] },
    });
    expect(parsePromptFile("03-a.md", file("title: A\ndependencies:"))).toMatchObject({
      ok: true,
      prompt: { dependencies: [] },
    });
  });

  it("trims the title", () => {
    expect(parsePromptFile("01-a.md", file('title: "  Spaced  "'))).toMatchObject({ ok: true, prompt: { title: "Spaced" } });
  });

  it("handles CRLF line endings and a byte-order mark", () => {
    const text = "\uFEFF---\r\nnumber: 1\r\ntitle: Windows\r\n---\r\n\r\nBody\r\n";
    expect(parsePromptFile("01-windows.md", text)).toEqual({
      ok: true,
      prompt: { number: 1, title: "Windows", status: "pending", priority: 3, dependencies: [], body: "Body\r\n" },
    });
  });

  it("keeps a horizontal rule (---) inside the body", () => {
    const result = parsePromptFile("01-a.md", file("title: A", "Before\n\n---\n\nAfter\n"));
    expect(result).toMatchObject({ ok: true, prompt: { body: "Before\n\n---\n\nAfter\n" } });
  });

  it("allows an empty body", () => {
    expect(parsePromptFile("01-a.md", "---\ntitle: A\n---\n")).toMatchObject({ ok: true, prompt: { body: "" } });
    expect(parsePromptFile("01-a.md", "---\ntitle: A\n---")).toMatchObject({ ok: true, prompt: { body: "" } });
  });

  it("ignores fields it does not know", () => {
    expect(parsePromptFile("01-a.md", file("title: A\nowner: sam"))).toMatchObject({ ok: true, prompt: { title: "A" } });
  });
});

describe("parsePromptFile: malformed files name the file and the reason", () => {
  it.each([
    ["no frontmatter", "# Just markdown\n", "01-a.md: missing YAML frontmatter (the file must start with a line '---' and close it with another '---')"],
    ["unclosed frontmatter", "---\ntitle: A\n\nbody\n", "01-a.md: missing YAML frontmatter (the file must start with a line '---' and close it with another '---')"],
    ["frontmatter not at the top", "intro\n---\ntitle: A\n---\n", "01-a.md: missing YAML frontmatter (the file must start with a line '---' and close it with another '---')"],
    ["bad YAML", file("title: [unclosed"), "01-a.md: invalid YAML in frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 1"],
    ["duplicate keys", file("title: A\ntitle: B"), "01-a.md: invalid YAML in frontmatter: Map keys must be unique at line 3, column 1"],
    ["a list instead of fields", file("- title: A"), "01-a.md: frontmatter must be a YAML mapping of fields (number, title, status, priority, dependencies)"],
    ["a scalar instead of fields", file("just text"), "01-a.md: frontmatter must be a YAML mapping of fields (number, title, status, priority, dependencies)"],
    ["empty frontmatter", "---\n---\nbody", "01-a.md: title is required"],
    ["missing title", file("number: 1"), "01-a.md: title is required"],
    ["blank title", file('title: "   "'), '01-a.md: title must be a non-empty string (got "   ")'],
    ["numeric title", file("title: 42"), "01-a.md: title must be a non-empty string (got 42)"],
    ["unknown status", file("title: A\nstatus: running"), '01-a.md: status must be one of pending, in_progress, done, failed, cancelled (got "running")'],
    ["priority out of range", file("title: A\npriority: 5"), "01-a.md: priority must be an integer from 1 to 4 (got 5)"],
    ["priority as P-label", file("title: A\npriority: P1"), '01-a.md: priority must be an integer from 1 to 4 (got "P1")'],
    ["fractional number", file("number: 1.5\ntitle: A"), "01-a.md: number must be an integer from 1 to 2147483647 (got 1.5)"],
    ["zero number", file("number: 0\ntitle: A"), "01-a.md: number must be an integer from 1 to 2147483647 (got 0)"],
    ["dependencies not a list", file("title: A\ndependencies: 2"), "01-a.md: dependencies must be a list of prompt numbers (integers from 1 to 2147483647) (got 2)"],
    ["a bad dependency", file("title: A\ndependencies: [2, two]"), '01-a.md: dependencies must be a list of prompt numbers (integers from 1 to 2147483647) (got [2,"two"])'],
    ["self-dependency", file("title: A\ndependencies: [1]"), "01-a.md: dependencies must not include the prompt itself (1)"],
    ["several wrong fields", file("title: \"\"\npriority: 0"), '01-a.md: title must be a non-empty string (got ""); priority must be an integer from 1 to 4 (got 0)'],
  ])("%s", (_name, text, expected) => {
    expect(parsePromptFile("01-a.md", text)).toEqual({ ok: false, error: expected });
  });

  it("rejects a file name number that contradicts the frontmatter", () => {
    expect(parsePromptFile("03-a.md", file("number: 4\ntitle: A"))).toEqual({
      ok: false,
      error: "03-a.md: file name number 3 does not match frontmatter number 4",
    });
  });

  it("requires a number somewhere", () => {
    expect(parsePromptFile("login.md", file("title: A"))).toEqual({
      ok: false,
      error: "login.md: number is required (in the frontmatter or as the file name prefix NN-)",
    });
  });

  it("rejects a file name number past the database's integers", () => {
    expect(parsePromptFile("2147483648-a.md", file("title: A"))).toEqual({
      ok: false,
      error: "2147483648-a.md: number must be an integer from 1 to 2147483647 (got 2147483648 from the file name)",
    });
  });

  it("rejects a zero file name prefix when the frontmatter has no number", () => {
    expect(parsePromptFile("00-a.md", file("title: A"))).toEqual({
      ok: false,
      error: "00-a.md: number must be an integer from 1 to 2147483647 (got 0 from the file name)",
    });
  });
});

describe("parsePromptFile: edges", () => {
  const pad = Array.from({ length: 10 }, (_, i) => `k${i}: ${i}`).join("\n");

  it("names a YAML error's line and column past 9, counted from the file's first line", () => {
    expect(parsePromptFile("01-a.md", file(`${pad}\ntitle:          - a`))).toEqual({
      ok: false, error: "01-a.md: invalid YAML in frontmatter: Unexpected block-seq-ind on same line with key at line 12, column 17",
    });
  });

  it("takes the largest number a prompt can have from the file name", () => {
    expect(parsePromptFile("2147483647-a.md", file("title: A"))).toMatchObject({ ok: true, prompt: { number: 2147483647 } });
  });

  it("quotes a file name's number too large to hold exactly as written", () => {
    expect(parsePromptFile("99999999999999999999-a.md", file("title: A"))).toEqual({
      ok: false, error: "99999999999999999999-a.md: number must be an integer from 1 to 2147483647 (got 99999999999999999999 from the file name)",
    });
  });

  it("drops only a leading byte-order mark, not one inside the body", () => {
    expect(parsePromptFile("01-a.md", "\uFEFF---\ntitle: A\n---\nx\uFEFFy")).toMatchObject({ ok: true, prompt: { body: "x\uFEFFy" } });
    expect(parsePromptFile("01-a.md", "---\ntitle: A\n---\nx\uFEFFy")).toMatchObject({ ok: true, prompt: { body: "x\uFEFFy" } });
  });
});
