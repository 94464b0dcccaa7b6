import { createRequire } from "node:module";
import { Lang, parse, registerDynamicLanguage, type SgNode } from "@ast-grep/napi";

// Real tree-sitter grammars through ast-grep (TypeScript/JavaScript built in, Python and Go as
// prebuilt dynamic languages): a signature is the declaration's text up to its body, so what a
// regular expression would guess (nested braces, decorators, multi-line parameters) is parsed.
const require = createRequire(import.meta.url);
let registered = false;
function register() {
  if (registered) return;
  registerDynamicLanguage({ python: require("@ast-grep/lang-python"), go: require("@ast-grep/lang-go") });
  registered = true;
}

const LANGS: Record<string, string> = {
  ".ts": Lang.TypeScript, ".mts": Lang.TypeScript, ".cts": Lang.TypeScript, ".tsx": Lang.Tsx,
  ".js": Lang.JavaScript, ".mjs": Lang.JavaScript, ".cjs": Lang.JavaScript, ".jsx": Lang.JavaScript,
  ".py": "python", ".go": "go",
};

export const languageOf = (path: string): string | null => LANGS[path.slice(path.lastIndexOf("."))] ?? null;

const MAX_LINE = 160;

/** One line per top-level declaration (methods indented under their class), no bodies. */
export function signatures(lang: string, source: string): string[] {
  register();
  const root = parse(lang as Lang, source).root();
  const out: string[] = [];
  for (const node of root.children()) {
    if (lang === "python") python(node, out, "");
    else if (lang === "go") go(node, out);
    else script(node, out, "");
  }
  return out;
}

function head(node: SgNode, bodyField = "body"): string {
  const text = node.text();
  const body = node.field(bodyField);
  const cut = body ? text.slice(0, body.range().start.index - node.range().start.index) : text.split("\n")[0];
  const line = cut.replace(/\s+/g, " ").replace(/[\s{:=]+$/, "").trim();
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}

const SCRIPT_DECLS = new Set(["function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration",
  "interface_declaration", "type_alias_declaration", "enum_declaration", "lexical_declaration", "variable_declaration"]);

function script(node: SgNode, out: string[], prefix: string) {
  const kind = String(node.kind());
  if (kind === "export_statement") {
    const decl = node.field("declaration");
    if (decl) return script(decl, out, "export ");
    out.push(head(node));
    return;
  }
  if (!SCRIPT_DECLS.has(kind)) return;
  if (kind === "lexical_declaration" || kind === "variable_declaration") {
    // `const name: Type = …` → the names and their annotations only.
    for (const d of node.children().filter((c) => c.kind() === "variable_declarator")) {
      out.push(`${prefix}const ${head(d, "value")}`);
    }
    return;
  }
  if (kind === "interface_declaration" || kind === "type_alias_declaration" || kind === "enum_declaration") {
    out.push(`${prefix}${head(node, kind === "type_alias_declaration" ? "value" : "body")}`);
    return;
  }
  out.push(`${prefix}${head(node)}`);
  if (kind.includes("class")) {
    for (const member of node.field("body")?.children() ?? []) {
      if (member.kind() === "method_definition" || member.kind() === "abstract_method_signature") out.push(`  ${head(member)}`);
    }
  }
}

function python(node: SgNode, out: string[], indent: string) {
  const kind = String(node.kind());
  if (kind === "decorated_definition") {
    const inner = node.field("definition");
    if (inner) python(inner, out, indent);
    return;
  }
  if (kind !== "function_definition" && kind !== "class_definition") return;
  out.push(`${indent}${head(node)}`);
  if (kind === "class_definition") {
    for (const member of node.field("body")?.children() ?? []) python(member, out, `${indent}  `);
  }
}

function go(node: SgNode, out: string[]) {
  const kind = String(node.kind());
  if (kind === "function_declaration" || kind === "method_declaration") out.push(head(node));
  else if (kind === "type_declaration") {
    for (const spec of node.children().filter((c) => c.kind() === "type_spec")) {
      out.push(`type ${head(spec, "type")} ${String(spec.field("type")?.kind() ?? "").replace(/_type$/, "") ?? ""}`.trim());
    }
  }
}
