import { describe, expect, it } from "vitest";
import { canWrite, mentionSettingsInput, mentions, withoutMention } from "@/lib/github/mention-text";

describe("a mention of the bot's login", () => {
  it.each([
    ["@rm-bot fix it", true],
    ["please @RM-Bot, fix it", true],
    ["(@rm-bot) fix it", true],
    ["@rm-bot\nfix it", true],
    ["@rm-bot-2 fix it", false],
    ["@rm-botx fix it", false],
    ["mail me at me@rm-bot.dev", false],
    ["see org/@rm-bot", false],
    ["rm-bot fix it", false],
    ["@@rm-bot fix it", false],
  ])("%j → %s", (body, expected) => {
    expect(mentions(body, "rm-bot")).toBe(expected);
  });

  it("is taken out of the request, spaces tidied", () => {
    expect(withoutMention("@rm-bot  backend:  fix the\n  login page @RM-BOT", "rm-bot")).toBe("backend: fix the\nlogin page");
  });
});

describe("the mention login setting", () => {
  it.each([
    ["rm-bot", "rm-bot"],
    ["@rm-bot", "rm-bot"],
    ["  Rm-Bot2 ", "Rm-Bot2"],
    ["", null],
    [null, null],
  ])("%j is saved as %j", (given, saved) => {
    expect(mentionSettingsInput.parse({ mentionLogin: given })).toEqual({ mentionLogin: saved });
  });

  it.each([["-rm"], ["rm-"], ["rm--bot"], ["rm bot"], ["a".repeat(40)], ["rm\u0000bot"], [42]])("refuses %j", (given) => {
    const result = mentionSettingsInput.safeParse({ mentionLogin: given });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0].path).toEqual(["mentionLogin"]);
  });
});

describe("write access", () => {
  it.each([
    [{ permission: "admin", role_name: "admin" }, true],
    [{ permission: "write", role_name: "maintain" }, true],
    [{ permission: "write", role_name: "write" }, true],
    [{ permission: "read", role_name: "triage" }, false],
    [{ permission: "read", role_name: "read" }, false],
    [{ permission: "none", role_name: "none" }, false],
    [{}, false],
  ])("%j → %s", (answer, expected) => {
    expect(canWrite(answer)).toBe(expected);
  });
});
