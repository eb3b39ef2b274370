import { lookup } from "node:dns/promises";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { isPublicAddress } from "./address-policy";
import { parseAllowedHosts } from "./allowed-hosts";
import { assertPublicDestination, type HostLookup, type ResolvedAddress } from "./assert-public-destination";

function fixedLookup(answers: ResolvedAddress[]): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    return answers;
  };
  return Object.assign(lookup, { calls });
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const noAllowList = { allowedHosts: [] };

describe("assertPublicDestination: literal addresses", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1 is a loopback address"],
    ["2130706433", "127.0.0.1 is a loopback address"],
    ["0x7f.1", "127.0.0.1 is a loopback address"],
    ["0177.0.0.1", "127.0.0.1 is a loopback address"],
    ["127.1", "127.0.0.1 is a loopback address"],
    ["0xa9fea9fe", "169.254.169.254 is the cloud metadata address"],
    ["10.0.0.5", "10.0.0.5 is a private address"],
    ["[::1]", "::1 is a loopback address"],
    ["::ffff:127.0.0.1", "::ffff:7f00:1 is a loopback address (embedding 127.0.0.1)"],
    ["[fe80::1%25eth0]", "fe80::1%eth0 is a scoped (zone id) address"],
  ])("%s is refused before any lookup", async (host, detail) => {
    const lookup = fixedLookup([{ address: "8.8.8.8", family: 4 }]);
    const error = await refusal(assertPublicDestination(host, 5432, { ...noAllowList, lookup }));
    expect(error.code).toBe("validation_failed");
    expect(error.message).toBe(`outbound request refused: ${detail}`);
    expect(lookup.calls).toEqual([]);
  });

  it("returns a public literal as the address to connect to, without a lookup", async () => {
    const lookup = fixedLookup([]);
    await expect(assertPublicDestination("8.8.8.8", 5432, { ...noAllowList, lookup })).resolves.toEqual({
      host: "8.8.8.8",
      port: 5432,
      address: "8.8.8.8",
      family: 4,
      addresses: [{ address: "8.8.8.8", family: 4 }],
      allowListed: false,
    });
    expect(lookup.calls).toEqual([]);
  });

  it.each([["1.2.3.4.5"], ["bad host"], ["[::1"], ["09.1.1.1"]])("refuses the invalid host %j", async (host) => {
    const error = await refusal(assertPublicDestination(host, 80, noAllowList));
    expect(error.code).toBe("validation_failed");
    expect(error.message).toMatch(/^outbound request refused: ".*" is not a valid/);
  });

  it.each([0, -1, 65536, 1.5, Number.NaN])("refuses port %s", async (port) => {
    const error = await refusal(assertPublicDestination("8.8.8.8", port, noAllowList));
    expect(error.code).toBe("validation_failed");
  });
});

describe("assertPublicDestination: names", () => {
  it("resolves once and returns every checked address, first one to connect to", async () => {
    const lookup = fixedLookup([
      { address: "2606:4700::1111", family: 6 },
      { address: "1.1.1.1", family: 4 },
    ]);
    const destination = await assertPublicDestination("DB.Example.com", 5432, { ...noAllowList, lookup });
    expect(destination).toEqual({
      host: "db.example.com",
      port: 5432,
      address: "2606:4700::1111",
      family: 6,
      addresses: [
        { address: "2606:4700::1111", family: 6 },
        { address: "1.1.1.1", family: 4 },
      ],
      allowListed: false,
    });
    expect(lookup.calls).toEqual(["db.example.com"]);
  });

  it("refuses when any answer is non-public, without naming the internal address", async () => {
    const lookup = fixedLookup([
      { address: "1.1.1.1", family: 4 },
      { address: "10.1.2.3", family: 4 },
    ]);
    const error = await refusal(assertPublicDestination("mixed.example", 443, { ...noAllowList, lookup }));
    expect(error.code).toBe("validation_failed");
    expect(error.message).toBe("outbound request refused: mixed.example resolves to a private address");
    expect(error.message).not.toContain("10.1.2.3");
  });

  it.each([
    ["::ffff:169.254.169.254", "the cloud metadata address (embedding 169.254.169.254)"],
    ["64:ff9b::a00:1", "a private address (embedding 10.0.0.1)"],
    ["0.0.0.0", "an unspecified (this-network) address"],
    ["not-an-ip", "an invalid address"],
  ])("refuses a name answering %s", async (address, phrase) => {
    const error = await refusal(assertPublicDestination("x.example", 80, { ...noAllowList, lookup: fixedLookup([{ address, family: 4 }]) }));
    expect(error.message).toBe(`outbound request refused: x.example resolves to ${phrase}`);
  });

  it("refuses localhost and *.localhost by name, whatever the resolver answers", async () => {
    const lookup = fixedLookup([{ address: "8.8.8.8", family: 4 }]);
    for (const host of ["localhost", "LOCALHOST.", "db.localhost"]) {
      const error = await refusal(assertPublicDestination(host, 80, { ...noAllowList, lookup }));
      expect(error.code).toBe("validation_failed");
      expect(error.message).toMatch(/^outbound request refused: (db\.)?localhost is a loopback host name$/);
    }
    expect(lookup.calls).toEqual([]);
  });

  it("resolves an allow-listed localhost through the system resolver; its other ports stay refused", async () => {
    const allowedHosts = parseAllowedHosts("localhost:80");
    // Allow-listed, so the system resolver runs; the answer really is loopback and is returned to connect to.
    const destination = await assertPublicDestination("localhost", 80, { allowedHosts });
    expect(destination.addresses.every((answer) => answer.address === "127.0.0.1" || answer.address === "::1")).toBe(true);
    const error = await refusal(assertPublicDestination("localhost", 81, { allowedHosts }));
    expect(error.message).toBe("outbound request refused: localhost is a loopback host name");
  });

  it("reports a name that does not resolve as unavailable", async () => {
    const notFound: HostLookup = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.invalid"), { code: "ENOTFOUND" });
    };
    const error = await refusal(assertPublicDestination("nowhere.invalid", 80, { ...noAllowList, lookup: notFound }));
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe("outbound request to nowhere.invalid failed: host not found");
    const empty = await refusal(assertPublicDestination("empty.invalid", 80, { ...noAllowList, lookup: fixedLookup([]) }));
    expect(empty.code).toBe("unavailable");
  });

  it("stops waiting for a slow lookup when the signal aborts", async () => {
    const controller = new AbortController();
    const never: HostLookup = () => new Promise(() => undefined);
    const pending = assertPublicDestination("slow.example", 80, { ...noAllowList, lookup: never, signal: controller.signal });
    controller.abort();
    const error = await refusal(pending);
    expect(error.code).toBe("timeout");
  });
});

// The machine's own name usually resolves (via /etc/hosts) to a loopback or private address: a real-resolver case.
const machineName = hostname().toLowerCase();
const machineAnswers = await lookup(machineName, { all: true }).catch(() => []);
const machineNameIsInternal = machineAnswers.length > 0 && machineAnswers.every((answer) => !isPublicAddress(answer.address));

describe.runIf(machineNameIsInternal)(`assertPublicDestination: the system resolver (${machineName} is internal here)`, () => {
  it("refuses the machine's own name because it resolves to a non-public address", async () => {
    const error = await refusal(assertPublicDestination(machineName, 80, noAllowList));
    expect(error.code).toBe("validation_failed");
    expect(error.message).toMatch(new RegExp(`^outbound request refused: ${machineName.replace(/[.]/g, "\\.")} (resolves to .* address|is a loopback host name)$`));
  });
});

describe("assertPublicDestination: OUTBOUND_ALLOWED_HOSTS", () => {
  const allowedHosts = parseAllowedHosts("127.0.0.1:5432,db.internal:5432,[::1]");

  it("lets an allow-listed literal through on its port only", async () => {
    await expect(assertPublicDestination("127.0.0.1", 5432, { allowedHosts })).resolves.toMatchObject({ address: "127.0.0.1", allowListed: true });
    await expect(assertPublicDestination("2130706433", 5432, { allowedHosts })).resolves.toMatchObject({ address: "127.0.0.1", allowListed: true });
    expect((await refusal(assertPublicDestination("127.0.0.1", 5433, { allowedHosts }))).code).toBe("validation_failed");
    await expect(assertPublicDestination("[::1]", 1, { allowedHosts })).resolves.toMatchObject({ address: "::1", family: 6 });
  });

  it("lets an allow-listed name resolve to private addresses and returns them to connect to", async () => {
    const lookup = fixedLookup([{ address: "10.0.0.7", family: 4 }]);
    await expect(assertPublicDestination("DB.internal", 5432, { allowedHosts, lookup })).resolves.toEqual({
      host: "db.internal",
      port: 5432,
      address: "10.0.0.7",
      family: 4,
      addresses: [{ address: "10.0.0.7", family: 4 }],
      allowListed: true,
    });
  });

  it("does not extend to names that resolve to an allow-listed address", async () => {
    const lookup = fixedLookup([{ address: "127.0.0.1", family: 4 }]);
    const error = await refusal(assertPublicDestination("other.internal", 5432, { allowedHosts, lookup }));
    expect(error.message).toBe("outbound request refused: other.internal resolves to a loopback address");
  });
});
