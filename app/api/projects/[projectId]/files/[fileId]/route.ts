import { withProjectAuth } from "@/lib/http/with-project-auth";
import { getFileOrThrow } from "@/lib/files/get-file-or-throw";
import { readFileContent } from "@/lib/files/read-file-content";
import { contentDisposition } from "@/lib/files/upload-metadata";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";

type Params = { projectId: string; fileId: string };

/**
 * `GET /files/:fileId` (records.read): the file's bytes with the content type recorded at upload,
 * always as an attachment, never sniffed and never rendered as a page of this origin (CSP sandbox):
 * an uploaded HTML or SVG file cannot run script here.
 */
export const GET = withProjectAuth<Params>(
  async ({ project, params }) => {
    const store = await getProjectRecordStore({ project });
    const file = await getFileOrThrow({ store, id: params.fileId });
    const body = await readFileContent({ store, file });
    return new Response(body, {
      headers: {
        "content-type": file.contentType,
        "content-length": String(file.size),
        "content-disposition": contentDisposition(file.filename),
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "cache-control": "private, no-store",
      },
    });
  },
  { permission: "records.read" },
);
