import { AppError } from "@/lib/errors";
import { parseFilterLines, type FilterLine } from "./filter-lines";

export function parsedFiltersOrThrow(text: string): FilterLine[] {
  const parsed = parseFilterLines(text);
  if (!parsed.ok) throw new AppError("validation_failed", `invalid filters: ${parsed.error}`);
  return parsed.filters;
}
