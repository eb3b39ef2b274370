import { withProjectAuth } from "@/lib/http/with-project-auth";
import { exportFormSubmissionsCsv } from "@/lib/forms/form-submissions-csv";
import { getFormAutomationOrThrow } from "@/lib/forms/get-form-automation-or-throw";
import { listFormSubmissions } from "@/lib/forms/list-form-submissions";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";

/**
 * A form automation's stored submissions, newest first: `?search=…&limit=20&before=sub_…` answers
 * `{data, nextBefore}`; `?format=csv` answers the same selection as a CSV download (at most 5,000
 * rows; `x-next-before` names the cursor when more remain).
 */
export const GET = withProjectAuth<{ projectId: string; automationId: string }>(
  async ({ request, project, params }) => {
    const automation = await getFormAutomationOrThrow({ projectId: project.id, automationId: params.automationId });
    const store = await getProjectRecordStore({ project });
    const { format, ...query } = Object.fromEntries(new URL(request.url).searchParams);
    if (format === "csv") {
      const { csv, nextBefore } = await exportFormSubmissionsCsv({ store, automationId: automation.id, query });
      return new Response(csv, {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          // The slug is lowercase letters, digits and dashes: safe in the header as it is.
          "content-disposition": `attachment; filename="${automation.trigger.form}-submissions.csv"`,
          "cache-control": "no-store",
          ...(nextBefore ? { "x-next-before": nextBefore } : {}),
        },
      });
    }
    return Response.json(await listFormSubmissions({ store, automationId: automation.id, query }), { headers: { "cache-control": "no-store" } });
  },
  { permission: "automations.read" },
);
