import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { endpointInputSchema } from "@/lib/endpoints/endpoint-definition";
import { buildProjectOpenApi } from "@/lib/openapi/build-project-openapi";
import { OPENAPI_ENDPOINTS, OPENAPI_SCHEMAS } from "@/lib/openapi/testing/openapi-fixtures";
import { parseSchemaDefinition } from "@/lib/schemas/schema-definition";
import { ApiReference } from "./api-reference";

const document = buildProjectOpenApi({
  project: { id: "prj_docs", name: "Docs" },
  schemas: OPENAPI_SCHEMAS.map((schema) => parseSchemaDefinition(schema)),
  endpoints: OPENAPI_ENDPOINTS.map((fixture, index) => ({
    ...endpointInputSchema.parse(fixture),
    id: `ep_${index}`,
    projectId: "prj_docs",
    version: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  })),
  appUrl: "https://app.example",
  invocationUrl: "https://app.example",
});

describe("ApiReference", () => {
  const html = renderToStaticMarkup(createElement(ApiReference, { document }));

  it("renders every operation under its tag, as headings with method and path", () => {
    for (const tag of document.tags) expect(html).toContain(`<h2 class="text-base font-semibold text-slate-900">${tag.name.replace("&", "&amp;")}</h2>`);
    const operations = Object.values(document.paths).flatMap((item) => Object.keys(item).filter((key) => key !== "parameters" && key !== "servers"));
    expect(html.match(/<h3 id="op-/g)?.length).toBe(operations.length);
    expect(html).toContain('<code class="break-all">/records/articles/{recordId}</code>');
    expect(html).toContain("None (public)");
    expect(html).toContain("End-user token (Bearer, members)");
    expect(html).toContain("API key (Bearer)");
  });

  it("names its tables and links schema references to their section", () => {
    const tables = html.match(/<table/g)?.length ?? 0;
    expect(tables).toBeGreaterThan(0);
    expect(html.match(/<caption class="sr-only">/g)?.length).toBe(tables);
    expect(html).toContain('href="#schema-articles-record"');
    expect(html).toContain('id="schema-articles-record"');
    // Secondary text is slate-600 or darker (WCAG AA contrast on white).
    expect(html).not.toMatch(/text-slate-(300|400|500)/);
  });
});
