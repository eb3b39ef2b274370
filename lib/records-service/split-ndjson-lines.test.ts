import { describe, expect, it } from "vitest";
import { NdjsonSplitter, splitNdjsonLines, type NdjsonLine } from "./split-ndjson-lines";

async function linesOf(chunks: Array<Uint8Array | string>, maxLineBytes = 100): Promise<NdjsonLine[]> {
  const lines: NdjsonLine[] = [];
  for await (const line of splitNdjsonLines(chunks, { maxLineBytes })) lines.push(line);
  return lines;
}

/** Every way of cutting the bytes in two, so that no chunk boundary is special. */
async function everySplit(input: Buffer, maxLineBytes = 100): Promise<NdjsonLine[][]> {
  const results = [];
  for (let cut = 0; cut <= input.length; cut++) results.push(await linesOf([input.subarray(0, cut), input.subarray(cut)], maxLineBytes));
  return results;
}

describe("splitNdjsonLines", () => {
  it("answers each line with its 1-based number, blank lines included", async () => {
    expect(await linesOf(['{"a":1}\n\n{"a":2}\n'])).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: "" },
      { number: 3, text: '{"a":2}' },
    ]);
  });

  it("drops the \\r of CRLF line breaks", async () => {
    expect(await linesOf(['{"a":1}\r\n{"a":2}\r\n'])).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: '{"a":2}' },
    ]);
    // The \r and the \n in different chunks.
    expect(await linesOf(['{"a":1}\r', '\n{"a":2}'])).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: '{"a":2}' },
    ]);
  });

  it("reads a last line without a line break, and no empty line after a final one", async () => {
    expect(await linesOf(['{"a":1}\n{"a":2}'])).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: '{"a":2}' },
    ]);
    expect(await linesOf(['{"a":1}\n'])).toEqual([{ number: 1, text: '{"a":1}' }]);
    expect(await linesOf([])).toEqual([]);
    expect(await linesOf([""])).toEqual([]);
  });

  it("puts multi-byte characters split across chunks back together, at every cut", async () => {
    const input = Buffer.from('{"name":"Zoë 😀 日本"}\r\n{"name":"ß"}', "utf8");
    for (const lines of await everySplit(input)) {
      expect(lines).toEqual([
        { number: 1, text: '{"name":"Zoë 😀 日本"}' },
        { number: 2, text: '{"name":"ß"}' },
      ]);
    }
    // One byte per chunk.
    expect(await linesOf([...input].map((byte) => Uint8Array.of(byte)))).toEqual([
      { number: 1, text: '{"name":"Zoë 😀 日本"}' },
      { number: 2, text: '{"name":"ß"}' },
    ]);
  });

  it("answers a line over the limit as a problem, without holding it, and goes on with the next", async () => {
    const long = "x".repeat(101);
    const input = Buffer.from(`{"a":1}\n${long}\n${"y".repeat(100)}\r\n{"a":2}`, "utf8");
    for (const lines of await everySplit(input)) {
      expect(lines).toEqual([
        { number: 1, text: '{"a":1}' },
        { number: 2, problem: "the line is longer than 100 bytes" },
        // Exactly the limit (the \r is not counted).
        { number: 3, text: "y".repeat(100) },
        { number: 4, text: '{"a":2}' },
      ]);
    }
    // A long last line without a line break, and a very long one in many chunks.
    expect(await linesOf([`{"a":1}\n${long}`])).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, problem: "the line is longer than 100 bytes" },
    ]);
    const splitter = new NdjsonSplitter({ maxLineBytes: 100 });
    for (let i = 0; i < 1000; i++) expect(splitter.push("z".repeat(1000))).toEqual([]);
    expect(splitter.push("\n{}")).toEqual([{ number: 1, problem: "the line is longer than 100 bytes" }]);
    expect(splitter.end()).toEqual([{ number: 2, text: "{}" }]);
  });

  it("counts the limit in bytes, not characters", async () => {
    // 34 three-byte characters: 102 bytes.
    expect(await linesOf(["日".repeat(34)])).toEqual([{ number: 1, problem: "the line is longer than 100 bytes" }]);
    expect(await linesOf(["日".repeat(33)])).toEqual([{ number: 1, text: "日".repeat(33) }]);
  });

  it("answers bytes that are not UTF-8 as a problem of their line only", async () => {
    const input = Buffer.concat([Buffer.from('{"a":1}\n'), Buffer.from([0x7b, 0xff, 0x7d, 0x0a]), Buffer.from('{"a":2}\n')]);
    expect(await linesOf([input])).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, problem: "the line is not valid UTF-8" },
      { number: 3, text: '{"a":2}' },
    ]);
  });

  it("skips a UTF-8 byte order mark at the start, even split across chunks", async () => {
    const input = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n{"a":2}\n')]);
    for (const lines of await everySplit(input)) {
      expect(lines).toEqual([
        { number: 1, text: '{"a":1}' },
        { number: 2, text: '{"a":2}' },
      ]);
    }
  });
});
