import { describe, expect, it } from "vitest";
import { parseSchemaDefinition } from "@/lib/schemas/schema-definition";
import { collectNestedFileValues, componentsByName } from "./collect-nested-file-values";
import { resolveUploadPath } from "./resolve-upload-path";
import { planRecordUploads, uploadKey, type RecordUpload } from "./store-record-uploads";

const address = parseSchemaDefinition({
  name: "address",
  kind: "component",
  fields: [
    { name: "street", type: "string" },
    { name: "photo", type: "file", accept: ["image/*"], maxBytes: 1000 },
  ],
});
const hero = parseSchemaDefinition({
  name: "hero",
  kind: "component",
  fields: [
    { name: "image", type: "file", maxBytes: 5000 },
    { name: "place", type: "component", component: "address" },
  ],
});
const quote = parseSchemaDefinition({
  name: "quote",
  kind: "component",
  fields: [
    { name: "image", type: "string" },
    { name: "text", type: "text" },
  ],
});
const pages = parseSchemaDefinition({
  name: "pages",
  kind: "collection",
  fields: [
    { name: "title", type: "string" },
    { name: "cover", type: "file" },
    { name: "address", type: "component", component: "address" },
    { name: "gallery", type: "component", component: "address", repeatable: true, max: 3 },
    { name: "blocks", type: "dynamic_zone", components: ["hero", "quote"] },
  ],
});
const components = componentsByName([address, hero, quote, pages]);
const resolve = (path: string, values?: Record<string, unknown>) => resolveUploadPath({ schema: pages, components, path, values });

describe("resolveUploadPath without values (while the part streams)", () => {
  it("names the file field of a component, a repeatable component's item and every zone component that has one", () => {
    expect(resolve("address.photo")).toEqual({ ok: true, fields: [address.fields[1]], key: "address.photo" });
    expect(resolve("gallery.2.photo")).toMatchObject({ ok: true, key: "gallery.photo" });
    expect(resolve("blocks.7.image")).toEqual({ ok: true, fields: [hero.fields[0]], key: "blocks.image" });
    expect(resolve("blocks.0.place.photo")).toMatchObject({ ok: true, key: "blocks.place.photo" });
  });

  it("refuses paths that name no file field, positions out of range and prototype names", () => {
    const message = (path: string) => {
      const resolved = resolve(path);
      return resolved.ok ? "resolved" : resolved.message;
    };
    expect(message("address.street")).toBe("is not a file field (address.street is a string field)");
    expect(message("address.nope")).toBe('is not a file field: component address has no field "nope"');
    expect(message("title.x")).toBe("is not a file field (title is a string field, not a component or dynamic zone)");
    expect(message("gallery.3.photo")).toBe('is not a file field: gallery is a list of at most 3 items, so "3" is no position in it');
    expect(message("gallery.01.photo")).toMatch(/no position/);
    expect(message("gallery.-1.photo")).toMatch(/no position/);
    expect(message("blocks.1000.image")).toMatch(/at most 1000 items/);
    expect(message("gallery.photo")).toMatch(/no position/);
    expect(message("gallery.0")).toBe("is not a file field (gallery.0 is an item of gallery)");
    expect(message("blocks.0.text")).toBe("is not a file field (blocks.0.text is a text field)");
    for (const path of ["address.__proto__", "__proto__.photo", "blocks.0.constructor", "prototype.x"]) expect(message(path)).toMatch(/never walked into/);
    expect(message("cover")).toMatch(/inside a component/);
    expect(message("address..photo")).toMatch(/inside a component/);
  });
});

describe("resolveUploadPath with the values sent", () => {
  const values = {
    address: { street: "Main" },
    gallery: [{ street: "a" }],
    blocks: [{ __component: "quote", text: "hi" }, { __component: "hero" }, { __component: "nope" }],
  };
  it("follows the entry actually present and its own component", () => {
    expect(resolve("address.photo", values)).toMatchObject({ ok: true, key: "address.photo" });
    expect(resolve("gallery.0.photo", values)).toMatchObject({ ok: true, key: "gallery.photo" });
    expect(resolve("blocks.1.image", values)).toEqual({ ok: true, fields: [hero.fields[0]], key: "blocks.image" });
  });
  it("refuses entries that are not there, or whose component has no such file field", () => {
    expect(resolve("gallery.1.photo", values)).toEqual({ ok: false, message: "has no item to hold it: gallery holds 1 items in the values sent" });
    expect(resolve("address.photo", { ...values, address: null })).toEqual({ ok: false, message: "has no item to hold it: address is empty in the values sent" });
    expect(resolve("blocks.0.image", values)).toEqual({ ok: false, message: "is not a file field (blocks.0.image is a string field)" });
    expect(resolve("blocks.2.image", values)).toEqual({ ok: false, message: "has no item to hold it: blocks.2 names no component blocks allows" });
    expect(resolve("blocks.0.image", {})).toEqual({ ok: false, message: "has no item to hold it: blocks holds 0 items in the values sent" });
  });
});

describe("planRecordUploads", () => {
  const upload = (field: string): RecordUpload => ({ field, filename: "a.png", contentType: "image/png", data: Buffer.from("x") });
  it("puts each file id at its path, copying the containers on the way and leaving the caller's values alone", () => {
    const values = { title: "t", address: { street: "Main" }, blocks: [{ __component: "quote" }, { __component: "hero", place: { street: "b" } }] };
    const before = structuredClone(values);
    const { input, fileIds } = planRecordUploads(values, [upload("cover"), upload("address.photo"), upload("blocks.1.place.photo"), upload("blocks.1.image")]);
    expect(values).toEqual(before);
    expect(input).toEqual({
      title: "t",
      cover: fileIds[0],
      address: { street: "Main", photo: fileIds[1] },
      blocks: [{ __component: "quote" }, { __component: "hero", place: { street: "b", photo: fileIds[2] }, image: fileIds[3] }],
    });
  });
  it("refuses a path whose item is missing, at the path", () => {
    expect(() => planRecordUploads({ gallery: [] }, [upload("gallery.0.photo")])).toThrow(/gallery.0.photo: has no item to hold it/);
  });
  it("marks nested files with the path without positions", () => {
    expect(uploadKey("blocks.12.place.photo")).toBe("blocks.place.photo");
  });
});

describe("collectNestedFileValues", () => {
  it("finds ids in components, repeatable items and zone entries at any depth, never top-level ones", () => {
    const found = collectNestedFileValues(pages, components, {
      cover: "fil_top",
      address: { photo: "fil_a" },
      gallery: [{ photo: null }, { photo: "fil_g1" }],
      blocks: [
        { __component: "quote", image: "fil_not_a_file_field" },
        { __component: "hero", image: "fil_h", place: { photo: "fil_p" } },
        { __component: "gone", image: "fil_x" },
      ],
    });
    expect(found).toEqual([
      { path: "address.photo", key: "address.photo", id: "fil_a" },
      { path: "gallery.1.photo", key: "gallery.photo", id: "fil_g1" },
      { path: "blocks.1.image", key: "blocks.image", id: "fil_h" },
      { path: "blocks.1.place.photo", key: "blocks.place.photo", id: "fil_p" },
    ]);
  });
});
