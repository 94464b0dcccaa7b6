import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LIST_FIELDS } from "@/lib/db/json-row";

const SCALARS = new Set(["String", "Int", "Float", "Boolean", "DateTime", "Json", "BigInt", "Decimal", "Bytes"]);
const schema = readFileSync(join(import.meta.dirname, "../../prisma/schema.prisma"), "utf8");

function scalarListsOf(model: string): string[] {
  const body = new RegExp(`^model ${model} \\{\\n([\\s\\S]*?)^\\}`, "m").exec(schema)![1];
  return [...body.matchAll(/^\s+(\w+)\s+(\w+)\[\]/gm)].filter(([, , type]) => SCALARS.has(type)).map(([, name]) => name);
}

describe("rows read as JSON", () => {
  it.each(Object.entries(LIST_FIELDS))("name every scalar list of %s in the schema, so a NULL one reads as []", (model, lists) => {
    expect(lists).toEqual(scalarListsOf(model[0].toUpperCase() + model.slice(1)));
  });
});
