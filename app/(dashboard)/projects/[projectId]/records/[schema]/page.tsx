import type { Metadata } from "next";
import { AppLink as Link } from "@/components/ui/app-link";
import { isAppError } from "@/lib/errors";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { listRecords, type RecordList } from "@/lib/records-service/list-records";
import { parseListQuery } from "@/lib/records-service/parse-list-query";
import { effectiveFields } from "@/lib/schemas/schema-definition";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/form-error";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { formatDateTime } from "@/components/ui/format-date";
import { loadRecordSchema } from "./load-record-schema";

type Props = { params: Promise<{ projectId: string; schema: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Records of ${decodeURIComponent((await params).schema)}` };
}

const COLUMN_TYPES = new Set(["string", "text", "number", "integer", "boolean", "datetime", "email", "url", "enum", "relation", "file"]);

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

export default async function SchemaRecordsPage({ params, searchParams }: Props) {
  const { projectId, schema: rawName } = await params;
  const { loaded, schema, schemas, crumbs } = await loadRecordSchema(projectId, rawName);
  const query = await searchParams;
  const search = typeof query.search === "string" ? query.search : "";
  const page = typeof query.page === "string" ? query.page : "1";
  const listParams = new URLSearchParams({ page, perPage: "25" });
  if (search) listParams.set("search", search);
  const columns = effectiveFields(schema)
    .filter((field) => COLUMN_TYPES.has(field.type))
    .slice(0, 4)
    .map((field) => field.name);
  const base = `/projects/${projectId}/records/${schema.name}`;

  let list: RecordList | null = null;
  let problem: string | undefined;
  try {
    const store = await getProjectRecordStore({ project: loaded.row });
    list = await listRecords({ store, schema, schemas, query: parseListQuery({ schema, params: listParams }) });
  } catch (error) {
    if (!(isAppError(error) && error.isPublic)) throw error;
    problem = error.code === "bad_request" ? `This search is not valid: ${error.issues?.[0]?.message ?? error.message}.` : `Your database could not be read: ${error.message}.`;
  }
  const total = list?.meta.total ?? 0;
  // Past 1,000 matches the count stops (list-records.ts): say "at least".
  const more = list?.meta.totalCapped ? "+" : "";
  const pageNumber = list?.meta.page ?? 1;
  const pages = Math.max(1, Math.ceil(total / 25));
  const pageHref = (number: number) => `${base}?${new URLSearchParams({ ...(search ? { search } : {}), page: String(number) })}`;

  return (
    <>
      <PageHeader
        crumbs={crumbs.slice(0, -1).concat({ label: schema.name })}
        title={<span className="font-mono">{schema.name}</span>}
        description={list ? (total === 1 ? "1 record" : `${total.toLocaleString("en")}${more} records`) : undefined}
        actions={
          <>
            <ButtonLink href={`/projects/${projectId}/schemas/${schema.name}`} variant="secondary" size="sm">
              Edit schema
            </ButtonLink>
            <ButtonLink href={`${base}/new`} size="sm">
              New record
            </ButtonLink>
          </>
        }
      />
      <form action={base} className="mb-4 flex max-w-md gap-2" role="search">
        <label htmlFor="record-search" className="sr-only">
          Search records
        </label>
        <Input id="record-search" name="search" defaultValue={search} placeholder="Search text fields…" />
        <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50">
          Search
        </button>
      </form>
      {problem && <Notice tone="warning">{problem}</Notice>}
      {list && (
        <Card>
          {list.data.length === 0 ? (
            <CardBody>
              <EmptyState
                title={search ? "No records match" : "No records yet"}
                description={search ? "Try another search." : "Create one here, through the records API, or from an endpoint's Create record step."}
              />
            </CardBody>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="border-b border-slate-100 text-xs whitespace-nowrap uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="px-5 py-2 font-medium">
                      ID
                    </th>
                    {columns.map((column) => (
                      <th key={column} scope="col" className="px-3 py-2 font-medium normal-case">
                        {column}
                      </th>
                    ))}
                    <th scope="col" className="px-5 py-2 font-medium">
                      Created
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {list.data.map((record) => (
                    <tr key={record.id} className="hover:bg-slate-50/60">
                      <td className="px-5 py-2.5">
                        <Link href={`${base}/${record.id}`} className="font-mono text-xs text-indigo-600 hover:text-indigo-500">
                          {record.id}
                        </Link>
                      </td>
                      {columns.map((column) => (
                        <td key={column} className="max-w-56 truncate px-3 py-2.5 text-slate-700" title={cellText(record[column])}>
                          {cellText(record[column]) || <span className="text-slate-500">—</span>}
                        </td>
                      ))}
                      <td className="px-5 py-2.5 whitespace-nowrap text-slate-500">{formatDateTime(new Date(record.createdAt))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
      )}
      {list && pages > 1 && (
        <div className="mt-4 flex items-center justify-between text-sm text-slate-500">
          {pageNumber > 1 ? (
            <ButtonLink href={pageHref(pageNumber - 1)} variant="secondary" size="sm">
              ← Previous
            </ButtonLink>
          ) : (
            <span />
          )}
          <span>
            Page {pageNumber} of {pages}
            {more}
          </span>
          {pageNumber < pages ? (
            <ButtonLink href={pageHref(pageNumber + 1)} variant="secondary" size="sm">
              Next →
            </ButtonLink>
          ) : (
            <span />
          )}
        </div>
      )}
    </>
  );
}
