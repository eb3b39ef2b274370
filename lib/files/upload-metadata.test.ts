import { describe, expect, it } from "vitest";
import { fileFieldLimit, FILE_LIMITS } from "./file-limits";
import { contentDisposition, normalizeContentType, sanitizeFilename, uploadAccepted } from "./upload-metadata";

describe("normalizeContentType", () => {
  it("keeps the lowercased essence and a charset, defaults to octet-stream and refuses non-media types", () => {
    expect(normalizeContentType("Image/PNG")).toBe("image/png");
    expect(normalizeContentType('text/plain; Charset="ISO-8859-1"; format=flowed')).toBe("text/plain; charset=iso-8859-1");
    expect(normalizeContentType("application/vnd.api+json")).toBe("application/vnd.api+json");
    expect(normalizeContentType(null)).toBe("application/octet-stream");
    expect(normalizeContentType("  ")).toBe("application/octet-stream");
    for (const bad of ["png", "text/", "/plain", "text/plain/x", "text/pla in", "a".repeat(128) + "/x"]) expect(normalizeContentType(bad), bad).toBeNull();
  });
});

describe("sanitizeFilename", () => {
  it("keeps the last path segment without control characters, bounded, with its extension", () => {
    expect(sanitizeFilename("../../etc/passwd")).toBe("passwd");
    expect(sanitizeFilename("C:\\fakepath\\photo.jpg")).toBe("photo.jpg");
    expect(sanitizeFilename("a\u0000b\r\nc\u0085.txt")).toBe("abc.txt");
    expect(sanitizeFilename("Grüße 北京.pdf")).toBe("Grüße 北京.pdf");
    for (const empty of [null, "", "  ", ".", "..", "dir/"]) expect(sanitizeFilename(empty)).toBe("file");
    const long = sanitizeFilename(`${"n".repeat(400)}.tar.gz`);
    expect(long).toHaveLength(FILE_LIMITS.filenameLength);
    expect(long.endsWith(".gz")).toBe(true);
  });
});

describe("uploadAccepted", () => {
  const upload = (filename: string, contentType: string) => ({ filename, contentType });
  it("matches MIME types, wildcards and extensions case-insensitively; an empty list accepts anything", () => {
    expect(uploadAccepted(undefined, upload("a.exe", "application/x-msdownload"))).toBe(true);
    expect(uploadAccepted([], upload("a", "x/y"))).toBe(true);
    expect(uploadAccepted(["image/*"], upload("a.bin", "image/webp"))).toBe(true);
    expect(uploadAccepted(["image/*"], upload("a.png", "text/html"))).toBe(false);
    expect(uploadAccepted(["image/*"], upload("a.png", "imagex/png"))).toBe(false);
    expect(uploadAccepted(["application/pdf"], upload("a", "application/pdf; charset=binary"))).toBe(true);
    expect(uploadAccepted([".PDF"], upload("Report.pdf", "application/octet-stream"))).toBe(true);
    expect(uploadAccepted([".pdf"], upload(".pdf", "application/pdf"))).toBe(false);
    expect(uploadAccepted([".pdf"], upload("report.pdf.exe", "application/pdf"))).toBe(false);
  });
});

describe("contentDisposition", () => {
  it("always says attachment, with an ASCII fallback and the exact name in RFC 5987 form", () => {
    expect(contentDisposition("a.txt")).toBe(`attachment; filename="a.txt"; filename*=UTF-8''a.txt`);
    expect(contentDisposition(`it's "x" (1)*.txt`)).toBe(`attachment; filename="it's _x_ (1)*.txt"; filename*=UTF-8''it%27s%20%22x%22%20%281%29%2A.txt`);
    expect(contentDisposition("ß\\.txt")).toBe(`attachment; filename="__.txt"; filename*=UTF-8''%C3%9F%5C.txt`);
  });
});

describe("fileFieldLimit", () => {
  it("lets a field lower the platform limit, never raise it", () => {
    expect(fileFieldLimit({})).toBe(FILE_LIMITS.maxFileBytes);
    expect(fileFieldLimit({ maxBytes: 1000 })).toBe(1000);
    expect(fileFieldLimit({ maxBytes: 1024 ** 3 })).toBe(FILE_LIMITS.maxFileBytes);
  });
});
