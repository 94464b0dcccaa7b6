import { describe, expect, it } from "vitest";
import { parsePromptFile } from "@/lib/prompts/parse";

const ok = (fileName: string, text: string) => {
  const r = parsePromptFile(fileName, text);
  if (!r.ok) throw new Error(r.error);
  return r.prompt;
};
const error = (fileName: string, text: string) => {
  const r = parsePromptFile(fileName, text);
  return r.ok ? "parsed" : r.error;
};
const MISSING = "missing YAML frontmatter (the file must start with a line '---' and close it with another '---')";

describe("the frontmatter fence", () => {
  it("accepts fences with trailing blanks, CRLF, and a closing fence at the very end", () => {
    expect(ok("01-a.md", "--- \t\ntitle: A\n---\t \nBody")).toMatchObject({ title: "A", body: "Body" });
    expect(ok("01-a.md", "---\r\ntitle: A\r\n---\r\nBody\r\n")).toMatchObject({ title: "A", body: "Body\r\n" });
    expect(ok("01-a.md", "---\ntitle: A\n---")).toMatchObject({ title: "A", body: "" });
    expect(ok("01-a.md", "---\ntitle: A\n---  ")).toMatchObject({ title: "A", body: "" });
  });

  it("refuses text before the fence, a longer fence, or a fence with other text on its line", () => {
    for (const text of ["intro\n---\ntitle: A\n---\nBody", " ---\ntitle: A\n---\n", "----\ntitle: A\n---\n", "---x\ntitle: A\n---\n", "---\ntitle: A\n---x\nBody", "---\ntitle: A\n"]) {
      expect(error("01-a.md", text), JSON.stringify(text)).toBe(`01-a.md: ${MISSING}`);
    }
  });

  it("closes at the first fence: a later '---' line belongs to the body", () => {
    expect(ok("01-a.md", "---\ntitle: A\n---\nBefore\n---\ntitle: B\n---\nAfter")).toMatchObject({ title: "A", body: "Before\n---\ntitle: B\n---\nAfter" });
  });

  it("reads an empty frontmatter as no fields", () => {
    expect(error("01-a.md", "---\n---\nBody")).toBe("01-a.md: title is required");
  });

  it("drops a leading byte-order mark and the blank lines before the body, nothing else", () => {
    expect(ok("01-a.md", "\uFEFF---\ntitle: A\n---\n\n\r\n\nBody\n\n\nMore \uFEFF")).toMatchObject({ title: "A", body: "Body\n\n\nMore \uFEFF" });
  });
});

describe("the number from the file name", () => {
  it("takes only a leading run of digits followed by a dash", () => {
    expect(ok("12-search.md", "---\ntitle: A\n---\n").number).toBe(12);
    expect(ok("007-bond.md", "---\ntitle: A\n---\n").number).toBe(7);
    for (const name of ["v2-search.md", "search-12-x.md", "12search.md", "-12-x.md"]) {
      expect(error(name, "---\ntitle: A\n---\n"), name).toBe(`${name}: number is required (in the frontmatter or as the file name prefix NN-)`);
    }
  });

  it("agrees with a frontmatter number or says which differs", () => {
    expect(ok("12-x.md", "---\nnumber: 12\ntitle: A\n---\n").number).toBe(12);
    expect(error("12-x.md", "---\nnumber: 13\ntitle: A\n---\n")).toBe("12-x.md: file name number 12 does not match frontmatter number 13");
  });

  it("refuses a prompt that depends on itself", () => {
    expect(error("05-x.md", "---\ntitle: A\ndependencies: [4, 5]\n---\n")).toBe("05-x.md: dependencies must not include the prompt itself (5)");
  });
});

describe("YAML errors", () => {
  it("say what is wrong and where, counting lines from the file's first line", () => {
    expect(error("01-a.md", "---\ntitle: a\ntitle: b\n---\nbody")).toBe("01-a.md: invalid YAML in frontmatter: Map keys must be unique at line 3, column 1");
    expect(error("01-a.md", "---\ntitle: ok\nnumber: [1\n---\nbody"))
      .toBe("01-a.md: invalid YAML in frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ] at line 4, column 1");
  });

  it("refuse a frontmatter that is not a mapping", () => {
    for (const fm of ["- a\n- b", "just text", "42"]) {
      expect(error("01-a.md", `---\n${fm}\n---\nbody`), fm).toBe("01-a.md: frontmatter must be a YAML mapping of fields (number, title, status, priority, dependencies)");
    }
  });
});
