import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { type HostLookup } from "./assert-public-destination";
import { type LocalTestServer, startLocalTestServer } from "./local-test-server";
import { type ConnectTarget } from "./pinned-connector";
import { safeFetch } from "./safe-fetch";

/**
 * The egress table: every address form the guard must refuse. Each case asserts the refusal, that no
 * socket was even attempted (beforeConnect never ran) and that the local servers saw no connection.
 * Non-loopback private addresses are refused before connecting, so nothing but loopback is ever contacted.
 */
let ipv4: LocalTestServer;
let ipv6: LocalTestServer | null = null;
let port = 0;
const dialled: ConnectTarget[] = [];
const beforeConnect = (target: ConnectTarget) => {
  dialled.push(target);
};

beforeAll(async () => {
  delete process.env.OUTBOUND_ALLOWED_HOSTS;
  resetConfigForTests();
  ipv4 = await startLocalTestServer();
  port = ipv4.port;
  // The same port on ::1, where the host has IPv6 loopback, so IPv6 spellings would be caught too.
  ipv6 = await startLocalTestServer(undefined, { host: "::1", port }).catch(() => null);
});

afterAll(async () => {
  await ipv4.close();
  await ipv6?.close();
});

beforeEach(() => {
  dialled.length = 0;
});

function connectionsSeen(): number {
  return ipv4.connections() + (ipv6?.connections() ?? 0);
}

async function expectRefused(url: string, message: RegExp, options: { lookup?: HostLookup } = {}): Promise<void> {
  const error = await safeFetch(url, { beforeConnect, timeoutMs: 2_000, ...options }).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, url).toBeInstanceOf(AppError);
  expect((error as AppError).code, url).toBe("validation_failed");
  expect((error as AppError).message, url).toMatch(/^outbound request refused: /);
  expect((error as AppError).message, url).toMatch(message);
  expect(dialled, url).toEqual([]);
  expect(connectionsSeen(), url).toBe(0);
}

const P = () => port;

describe("egress table: loopback in every spelling", () => {
  it.each([
    ["http://127.0.0.1:P/", /127\.0\.0\.1 is a loopback address/],
    ["https://127.0.0.1:P/", /127\.0\.0\.1 is a loopback address/],
    ["http://127.0.0.2:P/", /loopback/],
    ["http://localhost:P/", /localhost is a loopback host name/],
    ["http://LOCALHOST.:P/", /localhost is a loopback host name/],
    ["http://api.localhost:P/", /api\.localhost is a loopback host name/],
    ["http://2130706433:P/", /127\.0\.0\.1 is a loopback/],
    ["http://0177.0.0.1:P/", /127\.0\.0\.1 is a loopback/],
    ["http://0x7f000001:P/", /127\.0\.0\.1 is a loopback/],
    ["http://0x7f.1:P/", /127\.0\.0\.1 is a loopback/],
    ["http://127.1:P/", /127\.0\.0\.1 is a loopback/],
    ["http://017700000001:P/", /127\.0\.0\.1 is a loopback/],
    ["http://127.000.000.001:P/", /127\.0\.0\.1 is a loopback/],
    ["http://%31%32%37.0.0.1:P/", /127\.0\.0\.1 is a loopback/],
    ["http://127.0.0.1.:P/", /127\.0\.0\.1 is a loopback/],
    ["http://[::1]:P/", /::1 is a loopback address/],
    ["http://[0:0:0:0:0:0:0:1]:P/", /::1 is a loopback address/],
    ["http://[::ffff:127.0.0.1]:P/", /::ffff:7f00:1 is a loopback address \(embedding 127\.0\.0\.1\)/],
    ["http://[::ffff:7f00:1]:P/", /embedding 127\.0\.0\.1/],
    ["http://[0:0:0:0:0:ffff:127.0.0.1]:P/", /embedding 127\.0\.0\.1/],
    ["http://[64:ff9b::7f00:1]:P/", /64:ff9b::7f00:1 is a loopback address \(embedding 127\.0\.0\.1\)/],
    ["http://[64:ff9b::127.0.0.1]:P/", /embedding 127\.0\.0\.1/],
    ["http://[2002:7f00:1::]:P/", /2002:7f00:1:: is a loopback address \(embedding 127\.0\.0\.1\)/],
    ["http://[::127.0.0.1]:P/", /::7f00:1 is a reserved address/],
    ["http://0.0.0.0:P/", /0\.0\.0\.0 is an unspecified/],
    ["http://0:P/", /0\.0\.0\.0 is an unspecified/],
    ["http://[::]:P/", /:: is an unspecified/],
  ])("%s", async (template, message) => {
    await expectRefused(template.replace(":P", `:${P()}`), message);
  });
});

describe("egress table: private, link-local, metadata and reserved ranges (never contacted)", () => {
  it.each([
    ["http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is the cloud metadata address/],
    ["http://0xa9fea9fe/latest/meta-data/", /169\.254\.169\.254 is the cloud metadata address/],
    ["http://169.254.43518/", /cloud metadata/],
    ["http://[::ffff:169.254.169.254]/", /cloud metadata address \(embedding 169\.254\.169\.254\)/],
    ["http://[fd00:ec2::254]/", /private/],
    ["http://169.254.1.1/", /link-local/],
    ["http://10.0.0.1/", /10\.0\.0\.1 is a private address/],
    ["http://012.0.0.1/", /10\.0\.0\.1 is a private address/],
    ["http://100.64.0.1/", /100\.64\.0\.1 is a carrier-grade NAT \(shared\) address/],
    ["http://172.16.0.1/", /172\.16\.0\.1 is a private address/],
    ["http://172.31.255.254/", /private/],
    ["http://192.168.1.1/", /192\.168\.1\.1 is a private address/],
    ["http://3232235777/", /192\.168\.1\.1 is a private address/],
    ["http://192.0.0.1/", /reserved/],
    ["http://192.0.2.1/", /documentation/],
    ["http://198.18.0.1/", /benchmarking/],
    ["http://198.51.100.1/", /documentation/],
    ["http://203.0.113.1/", /documentation/],
    ["http://224.0.0.1/", /multicast/],
    ["http://240.0.0.1/", /reserved/],
    ["http://255.255.255.255/", /broadcast/],
    ["http://[fe80::1]/", /fe80::1 is a link-local address/],
    ["http://[fc00::1]/", /fc00::1 is a private address/],
    ["http://[fd12:3456::1]/", /private/],
    ["http://[ff02::1]/", /multicast/],
    ["http://[64:ff9b::a00:1]/", /embedding 10\.0\.0\.1/],
    ["http://[64:ff9b:1::a00:1]/", /private/],
    ["http://[2002:a00:1::]/", /embedding 10\.0\.0\.1/],
    ["http://[2001::1]/", /reserved/],
    ["http://[2001:db8::1]/", /documentation/],
    ["http://[100::1]/", /reserved/],
  ])("%s", async (url, message) => {
    await expectRefused(url, message);
  });
});

describe("egress table: schemes and URLs", () => {
  it.each([
    ["file:///etc/passwd", /the file scheme is not allowed/],
    ["ftp://127.0.0.1:P/", /the ftp scheme is not allowed/],
    ["gopher://127.0.0.1:P/_GET%20/", /the gopher scheme is not allowed/],
    ["data:text/plain,hello", /the data scheme is not allowed/],
    ["ws://127.0.0.1:P/", /the ws scheme is not allowed/],
    ["dict://127.0.0.1:P/info", /the dict scheme is not allowed/],
    ["javascript:alert(1)", /the javascript scheme is not allowed/],
    ["not a url", /not a valid URL/],
    ["http://user:secret@127.0.0.1:P/", /credentials in the URL are not allowed/],
    ["http://1.2.3.4.5/", /not a valid URL/],
  ])("%s", async (template, message) => {
    await expectRefused(template.replace(":P", `:${P()}`), message);
  });
});

describe("egress table: names answering non-public addresses (injected resolver)", () => {
  const answering =
    (address: string): HostLookup =>
    async () => [{ address, family: address.includes(":") ? 6 : 4 }];

  it.each([
    ["127.0.0.1", /resolves to a loopback address/],
    ["::1", /resolves to a loopback address/],
    ["::ffff:127.0.0.1", /resolves to a loopback address \(embedding 127\.0\.0\.1\)/],
    ["169.254.169.254", /resolves to the cloud metadata address/],
    ["10.0.0.1", /resolves to a private address/],
    ["fe80::1", /resolves to a link-local address/],
    ["0.0.0.0", /resolves to an unspecified/],
  ])("a name answering %s", async (address, message) => {
    await expectRefused(`http://attacker.example:${P()}/`, message, { lookup: answering(address) });
  });
});

describe("egress table: the servers really do count connections", () => {
  it("an allow-listed request reaches the same server (control case)", async () => {
    process.env.OUTBOUND_ALLOWED_HOSTS = `127.0.0.1:${P()}`;
    resetConfigForTests();
    try {
      const before = ipv4.connections();
      const result = await safeFetch(`http://127.0.0.1:${P()}/`, { beforeConnect });
      expect(result.status).toBe(200);
      expect(ipv4.connections()).toBe(before + 1);
      expect(dialled.map((target) => target.address)).toEqual(["127.0.0.1"]);
    } finally {
      delete process.env.OUTBOUND_ALLOWED_HOSTS;
      resetConfigForTests();
    }
  });
});
