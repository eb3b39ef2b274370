import { describe, expect, it } from "vitest";
import type { RateStep, TargetLadder } from "./automation-report";
import { directusTarget, ladderRound, medianLadderRound, targetRateOf, type LadderRound } from "./ladder-rounds";

function flatStep(offeredRate: number, delayP50: number, delayP99: number): RateStep {
  return {
    offeredRate,
    seconds: 10,
    writesPerSecond: offeredRate,
    eventsPerSecond: offeredRate,
    backlogSlopePerSecond: 0,
    backlogAtEnd: 0,
    backlogMax: 3,
    backlogMaxAtSeconds: 2,
    inFlightMax: 2,
    inFlightMaxAtSeconds: 1.5,
    slotDelayedMax: 0,
    flat: true,
    delayMs: { p50: delayP50, p95: delayP99, p99: delayP99, max: delayP99 },
    writeLatencyMs: { p50: 1, p95: 2, p99: 3 },
    cpuMsPerEvent: null,
    cpuMsPerEventServer: null,
    cpuMsPerEventWorker: null,
    cpuMsPerEventDatabase: null,
    cpuMsPerEventRedis: null,
    machineBusy: null,
    drainSeconds: 0.1,
    answered: offeredRate * 10,
    lost: 0,
    ranTwice: 0,
    unsuccessfulRuns: 0,
    writeFailures: 0,
    statuses: { "201": offeredRate * 10 },
    skipped: 0,
  };
}

function ladder(target: TargetLadder["target"], sustainedRate: number | null, delayP50 = 5, delayP99 = 50): TargetLadder {
  const atSustained = sustainedRate === null ? null : flatStep(sustainedRate, delayP50, delayP99);
  return { target, steps: atSustained ? [atSustained] : [], sustainedRate, atSustained, peakEventsPerSecond: sustainedRate ?? 0 };
}

const noReference = ladder("reference", null);

function round(number: number, appRate: number | null, referenceRate: number | null): LadderRound {
  return ladderRound(
    number,
    ladder("app", appRate, number, number * 10),
    referenceRate === null ? noReference : ladder("reference", referenceRate),
    number % 2 === 1 ? "app" : "reference",
  );
}

describe("ladderRound", () => {
  it("gives the round's ratio and the delays at the app's sustained rate", () => {
    const summary = ladderRound(2, ladder("app", 660, 4, 210), ladder("reference", 1_470), "reference");
    expect(summary).toMatchObject({ round: 2, first: "reference", appSustained: 660, referenceSustained: 1_470, delayP50Ms: 4, delayP99Ms: 210 });
    expect(summary.ratio).toBeCloseTo(660 / 1_470, 10);
  });

  it("has no ratio when either side sustained no rate, and no delays when the app did not", () => {
    expect(ladderRound(1, ladder("app", null), ladder("reference", 1_000), "app")).toMatchObject({ ratio: null, delayP50Ms: null, delayP99Ms: null });
    expect(ladderRound(1, ladder("app", 500), noReference, "app")).toMatchObject({ ratio: null, appSustained: 500, delayP50Ms: 5 });
  });
});

describe("targetRateOf", () => {
  it("is half the reference's sustained rate, rounded up to 10 events/s so that it is never below half", () => {
    expect(targetRateOf(ladder("reference", 1_630))).toBe(820);
    expect(targetRateOf(ladder("reference", 1_600))).toBe(800);
    expect(targetRateOf(ladder("reference", 990))).toBe(500);
  });

  it("is null when the reference sustained no rate or was not measured", () => {
    expect(targetRateOf(ladder("reference", null))).toBeNull();
    expect(targetRateOf(noReference)).toBeNull();
  });
});

describe("ladderRound at the target rate", () => {
  it("keeps the app's step at the target rate and sums up its delays and whether it stayed flat", () => {
    const atTarget = { ...flatStep(820, 12, 64), flat: false };
    const summary = ladderRound(1, ladder("app", 850, 585, 888), ladder("reference", 1_630), "app", atTarget);
    expect(summary.appAtTargetRate).toBe(atTarget);
    expect(summary.atTargetRate).toEqual({ offeredRate: 820, flat: false, delayP50Ms: 12, delayP99Ms: 64 });
    // The delays at the app's own sustained rate stay beside them.
    expect(summary).toMatchObject({ delayP50Ms: 585, delayP99Ms: 888 });
  });

  it("has none when no step was measured at it", () => {
    expect(ladderRound(1, ladder("app", 500), noReference, "app")).toMatchObject({ atTargetRate: null, appAtTargetRate: null });
  });

  it("stays with its own round when the median round is judged", () => {
    const rounds = [400, 500, 600].map((appRate, index) =>
      ladderRound(index + 1, ladder("app", appRate), ladder("reference", 1_000), "app", flatStep(500, index + 1, (index + 1) * 10)),
    );
    const judged = medianLadderRound(rounds);
    expect(judged.round).toBe(2);
    expect(judged.appAtTargetRate?.delayMs.p99).toBe(20);
  });
});

describe("medianLadderRound", () => {
  it("judges the round with the median ratio, whatever the order of the rounds", () => {
    const rounds = [round(1, 660, 1_470), round(2, 600, 1_410), round(3, 850, 1_470)];
    expect(medianLadderRound(rounds).round).toBe(1);
    expect(medianLadderRound([...rounds].reverse()).round).toBe(1);
  });

  it("judges the lower of the two middle ratios of an even number of rounds", () => {
    const rounds = [round(1, 800, 1_000), round(2, 500, 1_000), round(3, 700, 1_000), round(4, 600, 1_000)];
    expect(medianLadderRound(rounds).round).toBe(4);
  });

  it("judges by the app's sustained rate when no reference was measured", () => {
    const rounds = [round(1, 900, null), round(2, 300, null), round(3, 600, null)];
    const judged = medianLadderRound(rounds);
    expect(judged.round).toBe(3);
    expect(judged.app.sustainedRate).toBe(600);
    expect(judged.delayP99Ms).toBe(30);
  });

  it("keeps the judged round's own ladders, so its delays come from the same round as its ratio", () => {
    const judged = medianLadderRound([round(1, 400, 1_000), round(2, 500, 1_000), round(3, 600, 1_000)]);
    expect(judged.round).toBe(2);
    expect(judged.app.atSustained?.delayMs.p99).toBe(20);
    expect(judged.delayP99Ms).toBe(20);
  });

  it("judges the only round of a single-round run", () => {
    expect(medianLadderRound([round(1, 650, 1_300)]).ratio).toBeCloseTo(0.5, 10);
  });
});

describe("directusTarget", () => {
  it("is the app's sustained rate over Directus', met from five times on", () => {
    expect(directusTarget(1_350, 150)).toEqual({ multiple: 9, appSustained: 1_350, directusSustained: 150, min: 5, met: true });
    expect(directusTarget(740, 150).met).toBe(false);
    expect(directusTarget(750, 150).met).toBe(true);
  });

  it("is not met, with no multiple, when either side sustained no rate", () => {
    expect(directusTarget(null, 150)).toMatchObject({ multiple: null, met: false });
    expect(directusTarget(1_350, null)).toMatchObject({ multiple: null, met: false });
  });
});
