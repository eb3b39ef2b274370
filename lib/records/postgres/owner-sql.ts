import { OWNER_COLLECTION, OWNER_ID } from "../database-owner";
import { RECORDS_SCHEMA, quoteIdentifier } from "./table-names";

/**
 * The ownership marker on PostgreSQL and PGlite: `flowpoint_records._flowpoint`, one row with the
 * id "owner". `_flowpoint` is not a valid collection name (record-names.ts reserves it), so no
 * collection table can collide with it.
 */
export const OWNER_TABLE = `${quoteIdentifier(RECORDS_SCHEMA)}.${quoteIdentifier(OWNER_COLLECTION)}`;

export const CREATE_OWNER_TABLE = [
  // As for collection tables: the schema is created only when missing.
  `DO $$ BEGIN IF to_regnamespace('${RECORDS_SCHEMA}') IS NULL THEN CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(RECORDS_SCHEMA)}; END IF; END $$`,
  `CREATE TABLE IF NOT EXISTS ${OWNER_TABLE} (id text COLLATE "C" PRIMARY KEY, project_id text NOT NULL, workspace_id text, attached_at timestamptz NOT NULL)`,
].join(";\n");

export const SELECT_OWNER = `SELECT project_id AS "projectId", workspace_id AS "workspaceId", attached_at AS "attachedAt" FROM ${OWNER_TABLE} WHERE id = '${OWNER_ID}'`;

/** $1 project id, $2 workspace id (or null), $3 attachedAt. Writes only when no marker exists. */
export const INSERT_OWNER = `INSERT INTO ${OWNER_TABLE} (id, project_id, workspace_id, attached_at) VALUES ('${OWNER_ID}', $1, $2, $3::timestamptz) ON CONFLICT (id) DO NOTHING`;

/** The override: rewrites a marker that names another project (one naming this project stays as it is). */
export const TAKE_OVER_OWNER =
  `INSERT INTO ${OWNER_TABLE} AS marker (id, project_id, workspace_id, attached_at) VALUES ('${OWNER_ID}', $1, $2, $3::timestamptz) ` +
  `ON CONFLICT (id) DO UPDATE SET project_id = EXCLUDED.project_id, workspace_id = EXCLUDED.workspace_id, attached_at = EXCLUDED.attached_at ` +
  `WHERE marker.project_id IS DISTINCT FROM EXCLUDED.project_id`;
