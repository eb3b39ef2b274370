import { describe, expect, it } from "vitest";
import { caughtAppError } from "@/test/support/caught-app-error";
import { nextScheduleTimes } from "./next-schedule-times";

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

describe("nextScheduleTimes", () => {
  it("lists the next times strictly after `from`, in order", () => {
    const from = new Date("2025-06-01T10:05:00.000Z");
    expect(iso(nextScheduleTimes({ cron: "*/5 * * * *", timezone: "UTC", count: 3, from }))).toEqual([
      "2025-06-01T10:10:00.000Z",
      "2025-06-01T10:15:00.000Z",
      "2025-06-01T10:20:00.000Z",
    ]);
    expect(iso(nextScheduleTimes({ cron: "*/5 * * * *", timezone: "UTC", count: 1, from: new Date("2025-06-01T10:04:59.999Z") }))).toEqual(["2025-06-01T10:05:00.000Z"]);
  });

  it("reads the expression in the time zone, across daylight-saving changes", () => {
    // 09:00 in New York is 14:00 UTC in winter and 13:00 UTC in summer (change on 9 March 2025).
    const from = new Date("2025-03-07T12:00:00.000Z");
    expect(iso(nextScheduleTimes({ cron: "0 9 * * *", timezone: "America/New_York", count: 3, from }))).toEqual([
      "2025-03-07T14:00:00.000Z",
      "2025-03-08T14:00:00.000Z",
      "2025-03-09T13:00:00.000Z",
    ]);
    // Weekdays at 08:30 in Berlin.
    const weekdays = nextScheduleTimes({ cron: "30 8 * * MON-FRI", timezone: "Europe/Berlin", count: 3, from: new Date("2025-01-03T12:00:00.000Z") });
    expect(iso(weekdays)).toEqual(["2025-01-06T07:30:00.000Z", "2025-01-07T07:30:00.000Z", "2025-01-08T07:30:00.000Z"]);
  });

  it("defaults `from` to now and answers nothing for a count of 0", () => {
    const before = Date.now();
    const [next] = nextScheduleTimes({ cron: "* * * * *", timezone: "UTC", count: 1 });
    expect(next!.getTime()).toBeGreaterThan(before);
    expect(next!.getTime()).toBeLessThanOrEqual(before + 60_000);
    expect(next!.getUTCSeconds()).toBe(0);
    expect(nextScheduleTimes({ cron: "* * * * *", timezone: "UTC", count: 0 })).toEqual([]);
  });

  it("never fires twice in one minute: every-minute is the densest schedule", () => {
    const times = nextScheduleTimes({ cron: "* * * * *", timezone: "UTC", count: 100, from: new Date("2025-06-01T00:00:30Z") });
    for (let i = 1; i < times.length; i++) expect(times[i]!.getTime() - times[i - 1]!.getTime()).toBe(60_000);
  });

  it("refuses an invalid schedule with the paths of its problems", async () => {
    const error = await caughtAppError(Promise.resolve().then(() => nextScheduleTimes({ cron: "* * * * * *", timezone: "Mars/Olympus", count: 3 })));
    expect(error.code).toBe("validation_failed");
    expect(error.issues?.map((issue) => issue.path)).toEqual(["cron", "timezone"]);
  });
});
