import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", ".data/**", "dist/**", "node_modules/**", "drizzle/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The dashboard's links go through AppLink, which holds its prefetch policy.
    files: ["components/**/*.tsx", "app/(dashboard)/**/*.tsx"],
    ignores: ["components/ui/app-link.tsx"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "next/link", message: "Use AppLink from @/components/ui/app-link (the dashboard's prefetch policy)." }] }],
    },
  },
];

export default config;
