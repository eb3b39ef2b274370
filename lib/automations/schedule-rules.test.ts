import { describe, expect, it } from "vitest";
import { isValidTimeZone, scheduleIssues } from "./schedule-rules";

const paths = (cron: string, timezone = "UTC") => scheduleIssues({ cron, timezone }).map((issue) => issue.path);

describe("schedule rules", () => {
  it.each(["* * * * *", "*/15 * * * *", "0 9 * * MON-FRI", "30 8 1,15 * *", "0 0 L * *", "0 12 * * 1#2", "0 0 * JAN,JUL THU", "0 0 29 2 *"])("accept %j", (cron) => {
    expect(paths(cron, "Europe/Berlin")).toEqual([]);
  });

  it.each([
    ["seconds (6 fields)", "0 * * * * *"],
    ["4 fields", "* * * *"],
    ["a macro", "@daily"],
    ["an empty expression", "   "],
    ["a minute out of range", "60 * * * *"],
    ["a step of 0", "*/0 * * * *"],
    ["letters", "a b c d e"],
    ["a date that never comes", "0 0 31 4 *"],
    ["a hashed minute", "H * * * *"],
    ["a hashed range", "H(0-29) * * * *"],
  ])("refuse %s", (_, cron) => {
    expect(paths(cron)).toEqual(["cron"]);
  });

  it("accepts IANA zones and refuses the rest", () => {
    for (const zone of ["UTC", "Europe/Berlin", "America/Argentina/Buenos_Aires", "Asia/Kolkata"]) expect(isValidTimeZone(zone), zone).toBe(true);
    for (const zone of ["Mars/Olympus", "Europe/Berlinn", "", "not a zone"]) expect(isValidTimeZone(zone), zone).toBe(false);
    expect(paths("* * * * *", "Mars/Olympus")).toEqual(["timezone"]);
    // Intl takes UTC offsets, the cron library does not: refused too, rather than failing at the first tick.
    expect(paths("* * * * *", "+01:00")).toEqual(["timezone"]);
  });
});
