ALTER TABLE "automations" ADD COLUMN "retry" jsonb DEFAULT '{"attempts":0,"backoffSeconds":30}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "form" text;--> statement-breakpoint
CREATE UNIQUE INDEX "automations_project_form_unique" ON "automations" USING btree ("project_id","form");