import { describe, expect, it } from "vitest";
import { languageOf, signatures } from "@/lib/campaigns/signatures";

describe("top-level signatures without bodies", () => {
  it("TypeScript: exports, functions over several lines, classes with their methods, types, constants", () => {
    const source = [
      'import x from "y";',
      "export function f(a: number,\n  b: string): string { if (a) { return b } return '' }",
      "export class A extends B {\n  private x = 1;\n  async m(a: T): Promise<void> { if (1) { } }\n}",
      "type X = { a: 1 }",
      "export interface I { a: number }",
      "export const C: number = 5, D = () => { return 1 };",
      "const secret = 'not a body line';",
    ].join("\n");
    expect(signatures(languageOf("a.ts")!, source)).toEqual([
      "export function f(a: number, b: string): string",
      "export class A extends B",
      "  async m(a: T): Promise<void>",
      "type X",
      "export interface I",
      "export const C: number",
      "export const D",
      "const secret",
    ]);
  });

  it("Python: decorated functions and classes with their methods", () => {
    const source = "import os\n@dec\ndef f(x, y=2) -> int:\n    return 1\nclass A(B):\n    def m(self):\n        pass\nX = 1\n";
    expect(signatures(languageOf("a.py")!, source)).toEqual(["def f(x, y=2) -> int", "class A(B)", "  def m(self)"]);
  });

  it("Go: functions, methods and types", () => {
    const source = 'package main\nfunc Foo(a int) (string, error) { return "", nil }\nfunc (t *T) M() {}\ntype T struct { A int }\n';
    expect(signatures(languageOf("a.go")!, source)).toEqual(["func Foo(a int) (string, error)", "func (t *T) M()", "type T struct"]);
  });

  it("knows which files it can read", () => {
    expect(["a.tsx", "b.mjs", "c.py", "d.go", "e.rs", "Makefile"].map(languageOf)).toEqual(["Tsx", "JavaScript", "python", "go", null, null]);
  });
});
