import { afterAll, beforeAll } from "vitest";
import { resetConfigForTests } from "@/lib/config";

/** Lets the outbound guard reach the test's own servers on 127.0.0.1 for the suites of this file. */
export function allowLoopbackOutbound(): void {
  const previous = process.env.OUTBOUND_ALLOWED_HOSTS;
  beforeAll(() => {
    process.env.OUTBOUND_ALLOWED_HOSTS = "127.0.0.1";
    resetConfigForTests();
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.OUTBOUND_ALLOWED_HOSTS;
    else process.env.OUTBOUND_ALLOWED_HOSTS = previous;
    resetConfigForTests();
  });
}
