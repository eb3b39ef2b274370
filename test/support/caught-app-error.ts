import { expect } from "vitest";
import { AppError } from "@/lib/errors";

/** The AppError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function caughtAppError(pending: Promise<unknown>): Promise<AppError> {
  const error = await pending.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
