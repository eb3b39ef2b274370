/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Drivers with optional native parts stay outside the server bundle.
  serverExternalPackages: ["mongodb", "ioredis", "nodemailer", "@electric-sql/pglite", "bullmq", "busboy"],
  // On a serverless host every function migrates the platform database on first use (lib/platform-db/client.ts
  // reads drizzle/ at run time, which the bundler cannot see): ship the migrations with each function.
  outputFileTracingIncludes: { "/**": ["./drizzle/**/*"] },
};

export default nextConfig;
