/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Drivers with optional native parts stay outside the server bundle.
  serverExternalPackages: ["mongodb", "ioredis", "nodemailer", "@electric-sql/pglite", "bullmq", "busboy"],
};

export default nextConfig;
