import { AUTOMATION_TARGETS, type LadderRoundSummary, type RateStep, type TargetLadder } from "./automation-report";

/** One round of the ladders: the app's and the reference's, measured one after the other. */
export interface LadderRound extends LadderRoundSummary {
  app: TargetLadder;
  reference: TargetLadder;
  /** The app's step at the round's target rate, measured after both ladders (null without a reference rate). */
  appAtTargetRate: RateStep | null;
}

/**
 * The rate the delay targets are judged at: the least the app must sustain, the reference's
 * sustained rate times the target ratio, rounded up to a multiple of 10 events/s. Null when the
 * reference sustained no rate (or was not measured).
 */
export function targetRateOf(reference: TargetLadder): number | null {
  if (!reference.sustainedRate) return null;
  return Math.ceil((reference.sustainedRate * AUTOMATION_TARGETS.minSustainedRatio) / 10) * 10;
}

export function ladderRound(round: number, app: TargetLadder, reference: TargetLadder, first: LadderRound["first"], appAtTargetRate: RateStep | null = null): LadderRound {
  const ratio = app.sustainedRate !== null && reference.sustainedRate ? app.sustainedRate / reference.sustainedRate : null;
  const delay = app.atSustained?.delayMs ?? null;
  return {
    round,
    first,
    appSustained: app.sustainedRate,
    referenceSustained: reference.sustainedRate,
    ratio,
    delayP50Ms: delay?.p50 ?? null,
    delayP99Ms: delay?.p99 ?? null,
    atTargetRate: appAtTargetRate && {
      offeredRate: appAtTargetRate.offeredRate,
      flat: appAtTargetRate.flat,
      delayP50Ms: appAtTargetRate.delayMs.p50,
      delayP99Ms: appAtTargetRate.delayMs.p99,
    },
    app,
    reference,
    appAtTargetRate,
  };
}

/**
 * The round whose ratio is the median (of an even number, the lower of the two middle ones); without
 * ratios (no reference measured), the round whose app sustained rate is the median. Its ladders and
 * its step at the target rate are the ones reported, so the delays come from the same round as the ratio.
 */
export function medianLadderRound(rounds: readonly LadderRound[]): LadderRound {
  const key = (round: LadderRound) => round.ratio ?? round.appSustained ?? -1;
  const sorted = [...rounds].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * "≥ 5× Directus": the app's sustained events/s over Directus Flows' on the same work. Not met when
 * either sustained no rate: a Directus that held not even the ladder's lowest step gives no multiple
 * to judge by, and the run says so rather than calling it met.
 */
export function directusTarget(appSustained: number | null, directusSustained: number | null) {
  const multiple = appSustained !== null && directusSustained ? appSustained / directusSustained : null;
  return { multiple, appSustained, directusSustained, min: AUTOMATION_TARGETS.minDirectusMultiple, met: multiple !== null && multiple >= AUTOMATION_TARGETS.minDirectusMultiple };
}
