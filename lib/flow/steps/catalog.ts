import { conditionCatalog } from "./condition/catalog";
import { createCatalog } from "./create/catalog";
import { emailCatalog } from "./email/catalog";
import { httpCatalog } from "./http/catalog";
import { queryCatalog } from "./query/catalog";
import type { StepCatalogEntry } from "./step-catalog";
import { transformCatalog } from "./transform/catalog";
import { updateCatalog } from "./update/catalog";
import { webhookCatalog } from "./webhook/catalog";

/** Checks each entry's `id` against its key while keeping the precise types of the map. */
function defineStepCatalog<const T extends { readonly [K in keyof T]: StepCatalogEntry<K & string> }>(entries: T): T {
  return entries;
}

/**
 * Every step kind as the editors know it (zod-free), in the order the editor offers them: the one
 * list of step kinds. StepKind and STEP_KINDS come from it, and the definitions (registry.ts) must
 * cover exactly these kinds, each spreading its entry.
 */
export const STEP_CATALOG = defineStepCatalog({
  query: queryCatalog,
  transform: transformCatalog,
  condition: conditionCatalog,
  create: createCatalog,
  update: updateCatalog,
  http: httpCatalog,
  webhook: webhookCatalog,
  email: emailCatalog,
});

/** Every step kind a flow can use. */
export type StepKind = keyof typeof STEP_CATALOG;

/** The same map under the plain contract type, for code that handles any kind. */
export const STEP_CATALOG_ENTRIES: Readonly<Record<StepKind, StepCatalogEntry>> = STEP_CATALOG;
