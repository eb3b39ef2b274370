CREATE TABLE "endpoint_stats_hour" (
	"endpoint_id" text NOT NULL,
	"project_id" text NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"status_2xx" integer DEFAULT 0 NOT NULL,
	"status_3xx" integer DEFAULT 0 NOT NULL,
	"status_4xx" integer DEFAULT 0 NOT NULL,
	"status_5xx" integer DEFAULT 0 NOT NULL,
	"rate_limited" integer DEFAULT 0 NOT NULL,
	"cache_hits" integer DEFAULT 0 NOT NULL,
	"latency_buckets" integer[] NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	CONSTRAINT "endpoint_stats_hour_endpoint_id_hour_pk" PRIMARY KEY("endpoint_id","hour")
);
--> statement-breakpoint
CREATE TABLE "endpoint_stats_minute" (
	"endpoint_id" text NOT NULL,
	"project_id" text NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"status_2xx" integer DEFAULT 0 NOT NULL,
	"status_3xx" integer DEFAULT 0 NOT NULL,
	"status_4xx" integer DEFAULT 0 NOT NULL,
	"status_5xx" integer DEFAULT 0 NOT NULL,
	"rate_limited" integer DEFAULT 0 NOT NULL,
	"cache_hits" integer DEFAULT 0 NOT NULL,
	"latency_buckets" integer[] NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	CONSTRAINT "endpoint_stats_minute_endpoint_id_minute_pk" PRIMARY KEY("endpoint_id","minute")
);
--> statement-breakpoint
ALTER TABLE "endpoint_stats_hour" ADD CONSTRAINT "endpoint_stats_hour_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoint_stats_minute" ADD CONSTRAINT "endpoint_stats_minute_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "endpoint_stats_hour_project_hour_idx" ON "endpoint_stats_hour" USING btree ("project_id","hour");--> statement-breakpoint
CREATE INDEX "endpoint_stats_minute_minute_idx" ON "endpoint_stats_minute" USING btree ("minute");