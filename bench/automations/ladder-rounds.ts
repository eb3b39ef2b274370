import type { LadderRoundSummary, TargetLadder } from "./automation-report";

/** One round of the ladders: the app's and the reference's, measured one after the other. */
export interface LadderRound extends LadderRoundSummary {
  app: TargetLadder;
  reference: TargetLadder;
}

export function ladderRound(round: number, app: TargetLadder, reference: TargetLadder, first: LadderRound["first"]): LadderRound {
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
    app,
    reference,
  };
}

/**
 * The round whose ratio is the median (of an even number, the lower of the two middle ones); without
 * ratios (no reference measured), the round whose app sustained rate is the median. Its ladders are
 * the ones reported, so the delays at the app's sustained rate come from the same round as the ratio.
 */
export function medianLadderRound(rounds: readonly LadderRound[]): LadderRound {
  const key = (round: LadderRound) => round.ratio ?? round.appSustained ?? -1;
  const sorted = [...rounds].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
