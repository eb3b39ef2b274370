import type { StepRunner } from "@/lib/flow/engine/step-runner";
import { runCondition } from "./condition/run";
import { runCreate } from "./create/run";
import { runEmail } from "./email/run";
import { runHttp } from "./http/run";
import { runQuery } from "./query/run";
import type { StepKind } from "./step-kind";
import { runTransform } from "./transform/run";
import { runUpdate } from "./update/run";
import { runWebhook } from "./webhook/run";

/** Every step kind's runner (server-only). Typed per kind, so a missing kind fails the type check. */
export const STEP_RUNNERS: { readonly [K in StepKind]: StepRunner<K> } = {
  query: runQuery,
  transform: runTransform,
  condition: runCondition,
  create: runCreate,
  update: runUpdate,
  http: runHttp,
  webhook: runWebhook,
  email: runEmail,
};
